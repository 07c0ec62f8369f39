# Relative error of φ₁(z) = (e^z − 1)/z in double precision -- run `gnuplot phi1_rounding.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'phi1_rounding.svg'
set title 'Relative error of φ₁(z) = (e^z − 1)/z in double precision'
set xlabel '|z|  (z < 0)'
set ylabel 'relative error'
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right top
set yrange [1e-18:10]
plot 'phi1_rounding.dat' index 0 using 1:2 with linespoints lw 2 title '(exp(z) − 1)/z as written' noenhanced, \
     'phi1_rounding.dat' index 1 using 1:2 with linespoints lw 2 title 'expm1(z)/z' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'phi1_rounding.txt'
set title 'Relative error of φ₁(z) = (e^z − 1)/z in double precision' noenhanced
set xlabel '|z|  (z < 0)' noenhanced
set ylabel 'relative error' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside right top
set yrange [1e-18:10]
plot 'phi1_rounding.dat' index 0 using 1:2 with lines title '(exp(z) − 1)/z as written' noenhanced, \
     'phi1_rounding.dat' index 1 using 1:2 with lines title 'expm1(z)/z' noenhanced
unset output
