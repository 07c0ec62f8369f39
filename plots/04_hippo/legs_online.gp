# LegS (N = 32) reconstructs the whole history at every moment -- run `gnuplot legs_online.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'legs_online.svg'
set title 'LegS (N = 32) reconstructs the whole history at every moment' noenhanced
set xlabel 'sample s' noenhanced
set ylabel 'value' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
plot 'legs_online.dat' index 0 using 1:2 with lines lw 4 lc rgb '#bbbbbb' title 'signal' noenhanced, \
     'legs_online.dat' index 1 using 1:2 with lines lw 2 title 'from c at k = 2500' noenhanced, \
     'legs_online.dat' index 2 using 1:2 with lines lw 2 title 'from c at k = 5000' noenhanced, \
     'legs_online.dat' index 3 using 1:2 with lines lw 2 title 'from c at k = 10000' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'legs_online.txt'
set title 'LegS (N = 32) reconstructs the whole history at every moment' noenhanced
set xlabel 'sample s' noenhanced
set ylabel 'value' noenhanced
set key below
set key outside right top
plot 'legs_online.dat' index 0 using 1:2 with lines title 'signal' noenhanced, \
     'legs_online.dat' index 1 using 1:2 with lines title 'from c at k = 2500' noenhanced, \
     'legs_online.dat' index 2 using 1:2 with lines title 'from c at k = 5000' noenhanced, \
     'legs_online.dat' index 3 using 1:2 with lines title 'from c at k = 10000' noenhanced
unset output
