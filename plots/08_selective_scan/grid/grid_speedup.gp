# automatic's speedup over the official kernel -- run `gnuplot grid_speedup.gp` in this directory
set terminal svg size 1100,1230 dynamic font 'DejaVu Sans,12'
set output 'grid_speedup.svg'
set multiplot layout 3,2 title 'Speedup of Kernel::automatic over the official kernel (NVIDIA H200, 2026-11-30; 16 states, z, D, delta\_bias on)'
set logscale cb 2
set cbrange [0.25:4]
set palette defined (-2 '#b2182b', 0 '#f7f7f7', 2 '#2166ac')
set xtics ('33' 0, '256' 1, '2048' 2, '8192' 3, '32768' 4)
set ytics ('1x4' 0, '2x64' 1, '1x256' 2, '4x256' 3, '2x1536' 4, '1x5120' 5, '8x1536' 6, '4x5120' 7)
set xrange [-0.5:4.5]
set yrange [-0.5:7.5]
set xlabel 'seqlen'
set ylabel 'batch x dim'
set tics nomirror
unset key
set title 'fp32, forward'
plot 'grid_speedup.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 0 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'fp32, forward + backward'
plot 'grid_speedup.dat' index 1 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 1 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'bf16, forward'
plot 'grid_speedup.dat' index 2 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 2 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'bf16, forward + backward'
plot 'grid_speedup.dat' index 3 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 3 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'fp16, forward'
plot 'grid_speedup.dat' index 4 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 4 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'fp16, forward + backward'
plot 'grid_speedup.dat' index 5 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 5 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
unset multiplot
