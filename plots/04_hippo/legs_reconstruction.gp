# The signal and its reconstruction from the final LegS state c_L -- run `gnuplot legs_reconstruction.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'legs_reconstruction.svg'
set title 'The signal and its reconstruction from the final LegS state c_L'
set xlabel 'sample s'
set ylabel 'value'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
plot 'legs_reconstruction.dat' index 0 using 1:2 with lines lw 4 lc rgb '#bbbbbb' title 'signal' noenhanced, \
     'legs_reconstruction.dat' index 1 using 1:2 with lines lw 2 title 'N = 4' noenhanced, \
     'legs_reconstruction.dat' index 2 using 1:2 with lines lw 2 title 'N = 16' noenhanced, \
     'legs_reconstruction.dat' index 3 using 1:2 with lines lw 2 title 'N = 64' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'legs_reconstruction.txt'
set title 'The signal and its reconstruction from the final LegS state c_L' noenhanced
set xlabel 'sample s' noenhanced
set ylabel 'value' noenhanced
set key below
set key outside right top
plot 'legs_reconstruction.dat' index 0 using 1:2 with lines title 'signal' noenhanced, \
     'legs_reconstruction.dat' index 1 using 1:2 with lines title 'N = 4' noenhanced, \
     'legs_reconstruction.dat' index 2 using 1:2 with lines title 'N = 16' noenhanced, \
     'legs_reconstruction.dat' index 3 using 1:2 with lines title 'N = 64' noenhanced
unset output
