# S4D kernels K̄ (N = 64, Δ = 0.01) -- run `gnuplot s4d_kernels.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 's4d_kernels.svg'
set title 'S4D kernels K̄ (N = 64, Δ = 0.01)'
set xlabel 'lag ℓ'
set ylabel 'K̄_ℓ'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
set xzeroaxis
plot 's4d_kernels.dat' index 0 using 1:2 with lines lw 2 title 'S4D-Lin' noenhanced, \
     's4d_kernels.dat' index 1 using 1:2 with lines lw 2 title 'S4D-Inv' noenhanced, \
     's4d_kernels.dat' index 2 using 1:2 with lines lw 2 title 'S4D-Real' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 's4d_kernels.txt'
set title 'S4D kernels K̄ (N = 64, Δ = 0.01)' noenhanced
set xlabel 'lag ℓ' noenhanced
set ylabel 'K̄_ℓ' noenhanced
set key below
set key outside right top
set xzeroaxis
plot 's4d_kernels.dat' index 0 using 1:2 with lines title 'S4D-Lin' noenhanced, \
     's4d_kernels.dat' index 1 using 1:2 with lines title 'S4D-Inv' noenhanced, \
     's4d_kernels.dat' index 2 using 1:2 with lines title 'S4D-Real' noenhanced
unset output
