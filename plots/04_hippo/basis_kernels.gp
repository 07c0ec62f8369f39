# LegT basis kernels (N = 16, θ = 2500): impulse response of c_n, times θ -- run `gnuplot basis_kernels.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'basis_kernels.svg'
set title 'LegT basis kernels (N = 16, θ = 2500): impulse response of c_n, times θ'
set xlabel 'lag j (samples)'
set ylabel 'θ · K_n[j]'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
set xzeroaxis
plot 'basis_kernels.dat' index 0 using 1:2 with lines lw 2 title 'n = 0 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 1 using 1:2 with lines lw 1 dt 2 lc 'black' title 'n = 0: g_n on the window', \
     'basis_kernels.dat' index 2 using 1:2 with lines lw 2 title 'n = 1 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 3 using 1:2 with lines lw 1 dt 2 lc 'black' title 'n = 1: g_n on the window', \
     'basis_kernels.dat' index 4 using 1:2 with lines lw 2 title 'n = 2 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 5 using 1:2 with lines lw 1 dt 2 lc 'black' title 'n = 2: g_n on the window', \
     'basis_kernels.dat' index 6 using 1:2 with lines lw 2 title 'n = 3 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 7 using 1:2 with lines lw 1 dt 2 lc 'black' title 'n = 3: g_n on the window'
unset output
reset
set terminal dumb size 78,26 mono
set output 'basis_kernels.txt'
set title 'LegT basis kernels (N = 16, θ = 2500): impulse response of c_n, times θ' noenhanced
set xlabel 'lag j (samples)' noenhanced
set ylabel 'θ · K_n[j]' noenhanced
set key below
set key outside right top
set xzeroaxis
plot 'basis_kernels.dat' index 0 using 1:2 with lines title 'n = 0 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 1 using 1:2 with lines title 'n = 0: g_n on the window' noenhanced, \
     'basis_kernels.dat' index 2 using 1:2 with lines title 'n = 1 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 3 using 1:2 with lines title 'n = 1: g_n on the window' noenhanced, \
     'basis_kernels.dat' index 4 using 1:2 with lines title 'n = 2 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 5 using 1:2 with lines title 'n = 2: g_n on the window' noenhanced, \
     'basis_kernels.dat' index 6 using 1:2 with lines title 'n = 3 (recurrence)' noenhanced, \
     'basis_kernels.dat' index 7 using 1:2 with lines title 'n = 3: g_n on the window' noenhanced
unset output
