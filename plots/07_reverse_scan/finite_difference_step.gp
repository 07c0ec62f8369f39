# Central difference: truncation against rounding -- run `gnuplot finite_difference_step.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'finite_difference_step.svg'
set title 'Central difference: truncation against rounding' noenhanced
set xlabel 'step ε' noenhanced
set ylabel 'max |finite difference − reverse pass|' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom left
plot 'finite_difference_step.dat' index 0 using 1:2 with linespoints lw 2 pt 6 title 'dL/db' noenhanced, \
     'finite_difference_step.dat' index 1 using 1:2 with linespoints lw 2 pt 7 title 'dL/da' noenhanced, \
     'finite_difference_step.dat' index 2 using 1:2 with lines lw 2 dt 2 title 'u·|L|/ε (rounding)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'finite_difference_step.txt'
set title 'Central difference: truncation against rounding' noenhanced
set xlabel 'step ε' noenhanced
set ylabel 'max |finite difference − reverse pass|' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside bottom left
plot 'finite_difference_step.dat' index 0 using 1:2 with lines title 'dL/db' noenhanced, \
     'finite_difference_step.dat' index 1 using 1:2 with lines title 'dL/da' noenhanced, \
     'finite_difference_step.dat' index 2 using 1:2 with lines title 'u·|L|/ε (rounding)' noenhanced
unset output
