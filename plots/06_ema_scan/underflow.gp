# Running product of a_k = 0.5: log2 A_k -- run `gnuplot underflow.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'underflow.svg'
set title 'Running product of a_k = 0.5: log2 A_k'
set xlabel 'step k'
set ylabel 'log2 A_k'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom left
set arrow from 149,-260 to 149,0 nohead dt 2
plot 'underflow.dat' index 0 using 1:2 with lines lw 2 title 'fp64' noenhanced, \
     'underflow.dat' index 1 using 1:2 with lines lw 3 dt 2 title 'fp32 (0 from k = 149: log2 = -inf, not drawn)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'underflow.txt'
set title 'Running product of a_k = 0.5: log2 A_k' noenhanced
set xlabel 'step k' noenhanced
set ylabel 'log2 A_k' noenhanced
set key below
set key inside bottom left
set arrow from 149,-260 to 149,0 nohead dt 2
plot 'underflow.dat' index 0 using 1:2 with lines title 'fp64' noenhanced, \
     'underflow.dat' index 1 using 1:2 with lines title 'fp32 (0 from k = 149: log2 = -inf, not drawn)' noenhanced
unset output
