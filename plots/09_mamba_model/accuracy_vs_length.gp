# Held-out token accuracy against the length of the body -- run `gnuplot accuracy_vs_length.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'accuracy_vs_length.svg'
set title 'Held-out token accuracy against the length of the body' noenhanced
set xlabel 'body length (positions)' noenhanced
set ylabel 'accuracy (%)' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom left
set yrange [0:100]
plot 'accuracy_vs_length.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'selective model' noenhanced, \
     'accuracy_vs_length.dat' index 1 using 1:2 with linespoints lw 2 pt 7 title 'LTI model' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'accuracy_vs_length.txt'
set title 'Held-out token accuracy against the length of the body' noenhanced
set xlabel 'body length (positions)' noenhanced
set ylabel 'accuracy (%)' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
set key inside bottom left
set yrange [0:100]
plot 'accuracy_vs_length.dat' index 0 using 1:2 with lines title 'selective model' noenhanced, \
     'accuracy_vs_length.dat' index 1 using 1:2 with lines title 'LTI model' noenhanced
unset output
