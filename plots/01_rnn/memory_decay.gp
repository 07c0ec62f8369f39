# Influence of the first input, |dh_t / dx_0|, by spectral radius -- run `gnuplot memory_decay.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'memory_decay.svg'
set title 'Influence of the first input, |dh_t / dx_0|, by spectral radius'
set xlabel 'step t'
set ylabel '|dh_t / dx_0|'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [1e-12:1e3]
plot 'memory_decay.dat' index 0 using 1:2 with lines lw 2 title 'linear, ρ = 0.5' noenhanced, \
     'memory_decay.dat' index 1 using 1:2 with lines lw 2 title 'linear, ρ = 0.9' noenhanced, \
     'memory_decay.dat' index 2 using 1:2 with lines lw 2 title 'linear, ρ = 0.99' noenhanced, \
     'memory_decay.dat' index 3 using 1:2 with lines lw 2 title 'linear, ρ = 1.01' noenhanced, \
     'memory_decay.dat' index 4 using 1:2 with lines lw 2 dt 2 lc rgb 'black' title 'tanh, ρ = 0.9' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'memory_decay.txt'
set title 'Influence of the first input, |dh_t / dx_0|, by spectral radius' noenhanced
set xlabel 'step t' noenhanced
set ylabel '|dh_t / dx_0|' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set yrange [1e-12:1e3]
plot 'memory_decay.dat' index 0 using 1:2 with lines title 'linear, ρ = 0.5' noenhanced, \
     'memory_decay.dat' index 1 using 1:2 with lines title 'linear, ρ = 0.9' noenhanced, \
     'memory_decay.dat' index 2 using 1:2 with lines title 'linear, ρ = 0.99' noenhanced, \
     'memory_decay.dat' index 3 using 1:2 with lines title 'linear, ρ = 1.01' noenhanced, \
     'memory_decay.dat' index 4 using 1:2 with lines title 'tanh, ρ = 0.9' noenhanced
unset output
