# |g_k| against the distance L − 1 − k from the loss -- run `gnuplot gradient_vs_distance.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'gradient_vs_distance.svg'
set title '|g_k| against the distance L − 1 − k from the loss'
set xlabel 'distance from the loss (steps)'
set ylabel '|g_k| = |dL/db_k|'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [1e-20:1e3]
set key inside right center
plot 'gradient_vs_distance.dat' index 0 using 1:2 with lines lw 2 title 'a = 0.5' noenhanced, \
     'gradient_vs_distance.dat' index 1 using 1:2 with lines lw 2 title 'a = 0.9' noenhanced, \
     'gradient_vs_distance.dat' index 2 using 1:2 with lines lw 2 title 'a = 0.99' noenhanced, \
     'gradient_vs_distance.dat' index 3 using 1:2 with lines lw 2 title 'a = 1' noenhanced, \
     'gradient_vs_distance.dat' index 4 using 1:2 with lines lw 2 title 'a = 1.01' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'gradient_vs_distance.txt'
set title '|g_k| against the distance L − 1 − k from the loss' noenhanced
set xlabel 'distance from the loss (steps)' noenhanced
set ylabel '|g_k| = |dL/db_k|' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set yrange [1e-20:1e3]
set key inside right center
plot 'gradient_vs_distance.dat' index 0 using 1:2 with lines title 'a = 0.5' noenhanced, \
     'gradient_vs_distance.dat' index 1 using 1:2 with lines title 'a = 0.9' noenhanced, \
     'gradient_vs_distance.dat' index 2 using 1:2 with lines title 'a = 0.99' noenhanced, \
     'gradient_vs_distance.dat' index 3 using 1:2 with lines title 'a = 1' noenhanced, \
     'gradient_vs_distance.dat' index 4 using 1:2 with lines title 'a = 1.01' noenhanced
unset output
