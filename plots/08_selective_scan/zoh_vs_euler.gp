# B̄ by zero-order hold, per unit of Euler's δB -- run `gnuplot zoh_vs_euler.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'zoh_vs_euler.svg'
set title 'B̄ by zero-order hold, per unit of Euler''s δB' noenhanced
set xlabel 'x = δ|A|' noenhanced
set ylabel 'B̄_ZOH ÷ δB' noenhanced
set logscale x
set format x '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside bottom left
set yrange [0:1.1]
plot 'zoh_vs_euler.dat' index 0 using 1:2 with lines lw 2 title 'ZOH: (1 − e^{−x}) / x', \
     'zoh_vs_euler.dat' index 1 using 1:2 with lines lw 2 dt 2 title 'Euler (Mamba''s kernel): 1' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'zoh_vs_euler.txt'
set title 'B̄ by zero-order hold, per unit of Euler''s δB' noenhanced
set xlabel 'x = δ|A|' noenhanced
set ylabel 'B̄_ZOH ÷ δB' noenhanced
set logscale x
set format x '10^{%L}'
set key below
set format x '1e%L'
set key inside bottom left
set yrange [0:1.1]
plot 'zoh_vs_euler.dat' index 0 using 1:2 with lines title 'ZOH: (1 − e^{−x}) / x' noenhanced, \
     'zoh_vs_euler.dat' index 1 using 1:2 with lines title 'Euler (Mamba''s kernel): 1' noenhanced
unset output
