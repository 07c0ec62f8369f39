# K̄_ℓ of one conjugate pair A = -α ± iω (Δ = 0.1, C = 1) -- run `gnuplot kernel_oscillating.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'kernel_oscillating.svg'
set title 'K̄_ℓ of one conjugate pair A = -α ± iω (Δ = 0.1, C = 1)'
set xlabel 'lag ℓ'
set ylabel 'K̄_ℓ'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set xzeroaxis
set key inside right top
set yrange [-0.2:0.35]
plot 'kernel_oscillating.dat' index 0 using 1:2 with lines lw 2 title 'α = 0.2, ω = 1 (|Ā| = 0.980)' noenhanced, \
     'kernel_oscillating.dat' index 1 using 1:2 with lines lw 2 title 'α = 0.2, ω = 4 (|Ā| = 0.980)' noenhanced, \
     'kernel_oscillating.dat' index 2 using 1:2 with lines lw 2 title 'α = 1, ω = 4 (|Ā| = 0.905)' noenhanced, \
     'kernel_oscillating.dat' index 3 using 1:2 with lines lw 2 title 'α = 0.05, ω = 2 (|Ā| = 0.995)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'kernel_oscillating.txt'
set title 'K̄_ℓ of one conjugate pair A = -α ± iω (Δ = 0.1, C = 1)' noenhanced
set xlabel 'lag ℓ' noenhanced
set ylabel 'K̄_ℓ' noenhanced
set key below
set xzeroaxis
set key inside right top
set yrange [-0.2:0.35]
plot 'kernel_oscillating.dat' index 0 using 1:2 with lines title 'α = 0.2, ω = 1 (|Ā| = 0.980)' noenhanced, \
     'kernel_oscillating.dat' index 1 using 1:2 with lines title 'α = 0.2, ω = 4 (|Ā| = 0.980)' noenhanced, \
     'kernel_oscillating.dat' index 2 using 1:2 with lines title 'α = 1, ω = 4 (|Ā| = 0.905)' noenhanced, \
     'kernel_oscillating.dat' index 3 using 1:2 with lines title 'α = 0.05, ω = 2 (|Ā| = 0.995)' noenhanced
unset output
