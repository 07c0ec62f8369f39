# EMA impulse response h_k = (1 - α) α^k -- run `gnuplot impulse_response.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'impulse_response.svg'
set title 'EMA impulse response h_k = (1 - α) α^k'
set xlabel 'step k'
set ylabel 'h_k'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [1e-6:1]
set key top right
plot 'impulse_response.dat' index 0 using 1:2 with lines lw 2 title 'α = 0.5' noenhanced, \
     'impulse_response.dat' index 1 using 1:2 with lines lw 2 title 'α = 0.8' noenhanced, \
     'impulse_response.dat' index 2 using 1:2 with lines lw 2 title 'α = 0.9' noenhanced, \
     'impulse_response.dat' index 3 using 1:2 with lines lw 2 title 'α = 0.97' noenhanced, \
     'impulse_response.dat' index 4 using 1:2 with lines lw 2 title 'α = 0.99' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'impulse_response.txt'
set title 'EMA impulse response h_k = (1 - α) α^k' noenhanced
set xlabel 'step k' noenhanced
set ylabel 'h_k' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set yrange [1e-6:1]
set key top right
plot 'impulse_response.dat' index 0 using 1:2 with lines title 'α = 0.5' noenhanced, \
     'impulse_response.dat' index 1 using 1:2 with lines title 'α = 0.8' noenhanced, \
     'impulse_response.dat' index 2 using 1:2 with lines title 'α = 0.9' noenhanced, \
     'impulse_response.dat' index 3 using 1:2 with lines title 'α = 0.97' noenhanced, \
     'impulse_response.dat' index 4 using 1:2 with lines title 'α = 0.99' noenhanced
unset output
