# One sequence's forward against the GPUs it is cut over (batch 1, 1536 channels, bf16) -- run `gnuplot scaling.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'scaling.svg'
set title 'One sequence''s forward against the GPUs it is cut over (batch 1, 1536 channels, bf16)' noenhanced
set xlabel 'GPUs' noenhanced
set ylabel 'forward, ms' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
plot 'scaling.dat' index 0 using 1:2 with linespoints lw 2 title '1048576 steps' noenhanced, \
     'scaling.dat' index 1 using 1:2 with lines dt 2 lw 1 title '1048576 steps, one GPU''s time ÷ GPUs' noenhanced, \
     'scaling.dat' index 2 using 1:2 with linespoints lw 2 title '4194304 steps' noenhanced, \
     'scaling.dat' index 3 using 1:2 with lines dt 2 lw 1 title '4194304 steps, one GPU''s time ÷ GPUs' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'scaling.txt'
set title 'One sequence''s forward against the GPUs it is cut over (batch 1, 1536 channels, bf16)' noenhanced
set xlabel 'GPUs' noenhanced
set ylabel 'forward, ms' noenhanced
set logscale x
set format x '10^{%L}'
set logscale y
set format y '10^{%L}'
set key below
set format x '1e%L'
set format y '1e%L'
plot 'scaling.dat' index 0 using 1:2 with lines title '1048576 steps' noenhanced, \
     'scaling.dat' index 1 using 1:2 with lines title '1048576 steps, one GPU''s time ÷ GPUs' noenhanced, \
     'scaling.dat' index 2 using 1:2 with lines title '4194304 steps' noenhanced, \
     'scaling.dat' index 3 using 1:2 with lines title '4194304 steps, one GPU''s time ÷ GPUs' noenhanced
unset output
