# Norm of the Jacobian dh_t / dh_{-1} over time -- run `gnuplot gradient_norm.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'gradient_norm.svg'
set title 'Norm of the Jacobian dh_t / dh_{-1} over time'
set xlabel 'step t'
set ylabel '||dh_t / dh_{-1}||_2'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [1e-16:1e8]
plot 'gradient_norm.dat' index 0 using 1:2 with lines lw 2 title 'tanh, ρ = 0.5' noenhanced, \
     'gradient_norm.dat' index 1 using 1:2 with lines lw 2 title 'tanh, ρ = 0.9' noenhanced, \
     'gradient_norm.dat' index 2 using 1:2 with lines lw 2 title 'tanh, ρ = 1.5' noenhanced, \
     'gradient_norm.dat' index 3 using 1:2 with lines lw 2 title 'tanh, ρ = 3' noenhanced, \
     'gradient_norm.dat' index 4 using 1:2 with lines lw 2 title 'linear, ρ = 1.05' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'gradient_norm.txt'
set title 'Norm of the Jacobian dh_t / dh_{-1} over time' noenhanced
set xlabel 'step t' noenhanced
set ylabel '||dh_t / dh_{-1}||_2' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set yrange [1e-16:1e8]
plot 'gradient_norm.dat' index 0 using 1:2 with lines title 'tanh, ρ = 0.5' noenhanced, \
     'gradient_norm.dat' index 1 using 1:2 with lines title 'tanh, ρ = 0.9' noenhanced, \
     'gradient_norm.dat' index 2 using 1:2 with lines title 'tanh, ρ = 1.5' noenhanced, \
     'gradient_norm.dat' index 3 using 1:2 with lines title 'tanh, ρ = 3' noenhanced, \
     'gradient_norm.dat' index 4 using 1:2 with lines title 'linear, ρ = 1.05' noenhanced
unset output
