# Δ along a held-out sequence: layer 1, channel 55 -- run `gnuplot selection_delta.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'selection_delta.svg'
set title 'Δ along a held-out sequence: layer 1, channel 55' noenhanced
set xlabel 'position t' noenhanced
set ylabel 'Δ' noenhanced
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top right
set offsets 0, 0, graph 0.3, 0
plot 'selection_delta.dat' index 0 using 1:2 with lines lw 2 title 'selective model' noenhanced, \
     'selection_delta.dat' index 1 using 1:2 with lines lw 2 title 'LTI model, same channel' noenhanced, \
     'selection_delta.dat' index 2 using 1:2 with points pt 7 ps 0.8 title 'data tokens' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'selection_delta.txt'
set title 'Δ along a held-out sequence: layer 1, channel 55' noenhanced
set xlabel 'position t' noenhanced
set ylabel 'Δ' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set key inside top right
set offsets 0, 0, graph 0.3, 0
plot 'selection_delta.dat' index 0 using 1:2 with lines title 'selective model' noenhanced, \
     'selection_delta.dat' index 1 using 1:2 with lines title 'LTI model, same channel' noenhanced, \
     'selection_delta.dat' index 2 using 1:2 with lines title 'data tokens' noenhanced
unset output
