# The sliced forward against the GPUs (batch 1, 1536 channels, bf16) -- run `gnuplot scaling.gp` in this directory
set terminal svg size 760,540 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'scaling.svg'
set title 'The sliced forward against the GPUs (batch 1, 1536 channels, bf16)' noenhanced
set xlabel 'GPUs' noenhanced
set ylabel 'forward, ms' noenhanced
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set logscale x 2
set xtics (1, 2, 4, 8)
set format x '%g'
set key below maxrows 3
set xlabel offset 0,0.7
plot 'scaling.dat' index 0 using 1:2 with linespoints lw 2 title '1048576 steps, even' noenhanced, \
     'scaling.dat' index 1 using 1:2 with linespoints lw 2 title '1048576 steps, rank 0 ×2' noenhanced, \
     'scaling.dat' index 2 using 1:2 with lines dt 2 lw 1 title '1048576 steps, 1 GPU ÷ GPUs' noenhanced, \
     'scaling.dat' index 3 using 1:2 with linespoints lw 2 title '4194304 steps, even' noenhanced, \
     'scaling.dat' index 4 using 1:2 with linespoints lw 2 title '4194304 steps, rank 0 ×2' noenhanced, \
     'scaling.dat' index 5 using 1:2 with lines dt 2 lw 1 title '4194304 steps, 1 GPU ÷ GPUs' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'scaling.txt'
set title 'The sliced forward against the GPUs (batch 1, 1536 channels, bf16)' noenhanced
set xlabel 'GPUs' noenhanced
set ylabel 'forward, ms' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set logscale x 2
set xtics (1, 2, 4, 8)
set format x '%g'
set key below maxrows 3
set xlabel offset 0,0.7
plot 'scaling.dat' index 0 using 1:2 with lines title '1048576 steps, even' noenhanced, \
     'scaling.dat' index 1 using 1:2 with lines title '1048576 steps, rank 0 ×2' noenhanced, \
     'scaling.dat' index 2 using 1:2 with lines title '1048576 steps, 1 GPU ÷ GPUs' noenhanced, \
     'scaling.dat' index 3 using 1:2 with lines title '4194304 steps, even' noenhanced, \
     'scaling.dat' index 4 using 1:2 with lines title '4194304 steps, rank 0 ×2' noenhanced, \
     'scaling.dat' index 5 using 1:2 with lines title '4194304 steps, 1 GPU ÷ GPUs' noenhanced
unset output
