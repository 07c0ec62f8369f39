# ours against the official kernels across shapes -- `gnuplot speed_grid.gp` in this directory
set terminal svg size 1100,480 dynamic font 'DejaVu Sans,12'
set output 'speed_grid.svg'
set multiplot layout 1,2 title 'The official kernels'' time ÷ ours (NVIDIA H200 (sm_90, 132 SMs, 140 GiB), 2026-12-02)' noenhanced
set logscale cb 2
set cbrange [0.25:4]
set palette defined (-2 '#b2182b', 0 '#f7f7f7', 2 '#2166ac')
set xtics ('512' 0, '1024' 1, '2048' 2, '4096' 3, '8192' 4, '16384' 5)
set ytics ('1 × 24' 0, '1 × 80' 1, '8 × 24' 2, '4 × 80' 3, '8 × 80' 4, '16 × 80' 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set xlabel 'seqlen'
set ylabel 'batch × heads'
set tics nomirror
unset key
set title 'forward'
plot 'speed_grid.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 0 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
set title 'forward + backward'
plot 'speed_grid.dat' index 1 using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index 1 using 1:2:(sprintf('%.2f', $3)) with labels font ',10'
unset multiplot
