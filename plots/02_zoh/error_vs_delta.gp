# Largest output error on a staircase input, against the step Δ -- run `gnuplot error_vs_delta.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'error_vs_delta.svg'
set title 'Largest output error on a staircase input, against the step Δ'
set xlabel 'step Δ'
set ylabel 'max_k |y_k − y(t_k)|'
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside right center
set format y '10^{%T}'
plot 'error_vs_delta.dat' index 0 using 1:2 with linespoints lw 2 title 'ZOH' noenhanced, \
     'error_vs_delta.dat' index 1 using 1:2 with linespoints lw 2 title 'bilinear' noenhanced, \
     'error_vs_delta.dat' index 2 using 1:2 with linespoints lw 2 title 'Euler' noenhanced, \
     'error_vs_delta.dat' index 3 using 1:2 with linespoints lw 2 title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'error_vs_delta.txt'
set title 'Largest output error on a staircase input, against the step Δ' noenhanced
set xlabel 'step Δ' noenhanced
set ylabel 'max_k |y_k − y(t_k)|' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
set key inside right center
set format y '10^{%T}'
plot 'error_vs_delta.dat' index 0 using 1:2 with lines title 'ZOH' noenhanced, \
     'error_vs_delta.dat' index 1 using 1:2 with lines title 'bilinear' noenhanced, \
     'error_vs_delta.dat' index 2 using 1:2 with lines title 'Euler' noenhanced, \
     'error_vs_delta.dat' index 3 using 1:2 with lines title 'Mamba (ZOH Ā, Euler B̄)' noenhanced
unset output
