# Eigenvalues in the upper half-plane (N = 64; the top few, near 1300, are off the plot) -- run `gnuplot eigenvalues.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'eigenvalues.svg'
set title 'Eigenvalues in the upper half-plane (N = 64; the top few, near 1300, are off the plot)' noenhanced
set xlabel 'real part' noenhanced
set ylabel 'imaginary part' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
set xrange [-70:5]
set yrange [-5:200]
plot 'eigenvalues.dat' index 0 using 1:2 with points pt 7 ps 0.8 title 'LegS (S4D-Real)' noenhanced, \
     'eigenvalues.dat' index 1 using 1:2 with points pt 6 ps 1.2 title 'normal part of LegS' noenhanced, \
     'eigenvalues.dat' index 2 using 1:2 with points pt 4 ps 1 title 'S4D-Inv' noenhanced, \
     'eigenvalues.dat' index 3 using 1:2 with points pt 2 ps 1 title 'S4D-Lin' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'eigenvalues.txt'
set title 'Eigenvalues in the upper half-plane (N = 64; the top few, near 1300, are off the plot)' noenhanced
set xlabel 'real part' noenhanced
set ylabel 'imaginary part' noenhanced
set key below
set key outside right top
set xrange [-70:5]
set yrange [-5:200]
plot 'eigenvalues.dat' index 0 using 1:2 with lines title 'LegS (S4D-Real)' noenhanced, \
     'eigenvalues.dat' index 1 using 1:2 with lines title 'normal part of LegS' noenhanced, \
     'eigenvalues.dat' index 2 using 1:2 with lines title 'S4D-Inv' noenhanced, \
     'eigenvalues.dat' index 3 using 1:2 with lines title 'S4D-Lin' noenhanced
unset output
