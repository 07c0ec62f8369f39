# Impulse response of each state, δ = 0.1 -- run `gnuplot state_decay.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'state_decay.svg'
set title 'Impulse response of each state, δ = 0.1'
set xlabel 'steps k after the impulse'
set ylabel 'h_k = δ exp(δ A_n)^k'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside top right
set yrange [1e-8:1]
plot 'state_decay.dat' index 0 using 1:2 with linespoints lw 2 pt 7 ps 0.5 title 'n = 0 (A = -1)' noenhanced, \
     'state_decay.dat' index 1 using 1:2 with linespoints lw 2 pt 7 ps 0.5 title 'n = 1 (A = -2)' noenhanced, \
     'state_decay.dat' index 2 using 1:2 with linespoints lw 2 pt 7 ps 0.5 title 'n = 3 (A = -4)' noenhanced, \
     'state_decay.dat' index 3 using 1:2 with linespoints lw 2 pt 7 ps 0.5 title 'n = 7 (A = -8)' noenhanced, \
     'state_decay.dat' index 4 using 1:2 with linespoints lw 2 pt 7 ps 0.5 title 'n = 15 (A = -16)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'state_decay.txt'
set title 'Impulse response of each state, δ = 0.1' noenhanced
set xlabel 'steps k after the impulse' noenhanced
set ylabel 'h_k = δ exp(δ A_n)^k' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set key inside top right
set yrange [1e-8:1]
plot 'state_decay.dat' index 0 using 1:2 with lines title 'n = 0 (A = -1)' noenhanced, \
     'state_decay.dat' index 1 using 1:2 with lines title 'n = 1 (A = -2)' noenhanced, \
     'state_decay.dat' index 2 using 1:2 with lines title 'n = 3 (A = -4)' noenhanced, \
     'state_decay.dat' index 3 using 1:2 with lines title 'n = 7 (A = -8)' noenhanced, \
     'state_decay.dat' index 4 using 1:2 with lines title 'n = 15 (A = -16)' noenhanced
unset output
