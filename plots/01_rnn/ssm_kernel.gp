# The linear RNN's convolution kernel K_k = C A^k B -- run `gnuplot ssm_kernel.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'ssm_kernel.svg'
set title 'The linear RNN''s convolution kernel K_k = C A^k B'
set xlabel 'lag k'
set ylabel 'K_k'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set xzeroaxis
plot 'ssm_kernel.dat' index 0 using 1:2 with lines lw 2 title 'ρ = 0.5' noenhanced, \
     'ssm_kernel.dat' index 1 using 1:2 with lines lw 2 title 'ρ = 0.9' noenhanced, \
     'ssm_kernel.dat' index 2 using 1:2 with lines lw 2 title 'ρ = 0.99' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'ssm_kernel.txt'
set title 'The linear RNN''s convolution kernel K_k = C A^k B' noenhanced
set xlabel 'lag k' noenhanced
set ylabel 'K_k' noenhanced
set key below
set xzeroaxis
plot 'ssm_kernel.dat' index 0 using 1:2 with lines title 'ρ = 0.5' noenhanced, \
     'ssm_kernel.dat' index 1 using 1:2 with lines title 'ρ = 0.9' noenhanced, \
     'ssm_kernel.dat' index 2 using 1:2 with lines title 'ρ = 0.99' noenhanced
unset output
