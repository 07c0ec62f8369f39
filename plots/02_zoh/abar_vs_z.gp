# Ā for a real eigenvalue: where each rule sends z = Δa -- run `gnuplot abar_vs_z.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'abar_vs_z.svg'
set title 'Ā for a real eigenvalue: where each rule sends z = Δa' noenhanced
set xlabel 'z = Δa' noenhanced
set ylabel 'Ā' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key inside left bottom
set yrange [-2:1.2]
set xzeroaxis
set arrow 1 from -10,-1 to 0,-1 nohead dt 3
plot 'abar_vs_z.dat' index 0 using 1:2 with lines lw 2 title 'ZOH and Mamba: exp(z)' noenhanced, \
     'abar_vs_z.dat' index 1 using 1:2 with lines lw 2 title 'bilinear' noenhanced, \
     'abar_vs_z.dat' index 2 using 1:2 with lines lw 2 title 'Euler' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'abar_vs_z.txt'
set title 'Ā for a real eigenvalue: where each rule sends z = Δa' noenhanced
set xlabel 'z = Δa' noenhanced
set ylabel 'Ā' noenhanced
set key below
set key inside left bottom
set yrange [-2:1.2]
set xzeroaxis
set arrow 1 from -10,-1 to 0,-1 nohead dt 3
plot 'abar_vs_z.dat' index 0 using 1:2 with lines title 'ZOH and Mamba: exp(z)' noenhanced, \
     'abar_vs_z.dat' index 1 using 1:2 with lines title 'bilinear' noenhanced, \
     'abar_vs_z.dat' index 2 using 1:2 with lines title 'Euler' noenhanced
unset output
