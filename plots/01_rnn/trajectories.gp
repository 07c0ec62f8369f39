# Hidden state of a tanh RNN driven by a pulse (t = 10..14), then a sine (t ≥ 60) -- run `gnuplot trajectories.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'trajectories.svg'
set title 'Hidden state of a tanh RNN driven by a pulse (t = 10..14), then a sine (t ≥ 60)' noenhanced
set xlabel 'step t' noenhanced
set ylabel 'value' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
plot 'trajectories.dat' index 0 using 1:2 with lines lw 3 lc rgb '#bbbbbb' title 'input x_t', \
     'trajectories.dat' index 1 using 1:2 with lines lw 2 title 'h_t[0]', \
     'trajectories.dat' index 2 using 1:2 with lines lw 2 title 'h_t[1]', \
     'trajectories.dat' index 3 using 1:2 with lines lw 2 title 'h_t[2]', \
     'trajectories.dat' index 4 using 1:2 with lines lw 2 title 'h_t[3]'
unset output
reset
set terminal dumb size 78,26 mono
set output 'trajectories.txt'
set title 'Hidden state of a tanh RNN driven by a pulse (t = 10..14), then a sine (t ≥ 60)' noenhanced
set xlabel 'step t' noenhanced
set ylabel 'value' noenhanced
set key below
set key outside right top
plot 'trajectories.dat' index 0 using 1:2 with lines title 'input x_t' noenhanced, \
     'trajectories.dat' index 1 using 1:2 with lines title 'h_t[0]' noenhanced, \
     'trajectories.dat' index 2 using 1:2 with lines title 'h_t[1]' noenhanced, \
     'trajectories.dat' index 3 using 1:2 with lines title 'h_t[2]' noenhanced, \
     'trajectories.dat' index 4 using 1:2 with lines title 'h_t[3]' noenhanced
unset output
