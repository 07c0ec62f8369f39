# Reconstruction error of the signal against the state size N -- run `gnuplot reconstruction_error.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'reconstruction_error.svg'
set title 'Reconstruction error of the signal against the state size N' noenhanced
set xlabel 'state size N' noenhanced
set ylabel 'relative rms error' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
plot 'reconstruction_error.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'exact projection' noenhanced, \
     'reconstruction_error.dat' index 1 using 1:2 with linespoints lw 2 pt 6 dt 2 title 'bilinear recurrence' noenhanced, \
     'reconstruction_error.dat' index 2 using 1:2 with linespoints lw 2 pt 4 title 'Euler recurrence' noenhanced, \
     'reconstruction_error.dat' index 3 using 1:2 with linespoints lw 2 pt 5 title 'exact, sines alone' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'reconstruction_error.txt'
set title 'Reconstruction error of the signal against the state size N' noenhanced
set xlabel 'state size N' noenhanced
set ylabel 'relative rms error' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key outside right top
plot 'reconstruction_error.dat' index 0 using 1:2 with lines title 'exact projection' noenhanced, \
     'reconstruction_error.dat' index 1 using 1:2 with lines title 'bilinear recurrence' noenhanced, \
     'reconstruction_error.dat' index 2 using 1:2 with lines title 'Euler recurrence' noenhanced, \
     'reconstruction_error.dat' index 3 using 1:2 with lines title 'exact, sines alone' noenhanced
unset output
