# K̄_ℓ / K̄_0 of one real state, for several A and Δ -- run `gnuplot kernel_decay.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'kernel_decay.svg'
set title 'K̄_ℓ / K̄_0 of one real state, for several A and Δ'
set xlabel 'lag ℓ'
set ylabel 'K̄_ℓ / K̄_0'
set logscale y
set format y '10^{%L}'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set yrange [1e-6:1e3]
set key inside right top
plot 'kernel_decay.dat' index 0 using 1:2 with lines lw 2 title 'A = -1, Δ = 1 (Ā = 0.368)' noenhanced, \
     'kernel_decay.dat' index 1 using 1:2 with lines lw 2 title 'A = -1, Δ = 0.2 (Ā = 0.819)' noenhanced, \
     'kernel_decay.dat' index 2 using 1:2 with lines lw 2 title 'A = -1, Δ = 0.05 (Ā = 0.951)' noenhanced, \
     'kernel_decay.dat' index 3 using 1:2 with lines lw 2 title 'A = -0.1, Δ = 0.2 (Ā = 0.980)' noenhanced, \
     'kernel_decay.dat' index 4 using 1:2 with lines lw 2 title 'A = -0.1, Δ = 0.05 (Ā = 0.995)' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'kernel_decay.txt'
set title 'K̄_ℓ / K̄_0 of one real state, for several A and Δ' noenhanced
set xlabel 'lag ℓ' noenhanced
set ylabel 'K̄_ℓ / K̄_0' noenhanced
set logscale y
set format y '10^{%L}'
set key below
set format y '1e%L'
set yrange [1e-6:1e3]
set key inside right top
plot 'kernel_decay.dat' index 0 using 1:2 with lines title 'A = -1, Δ = 1 (Ā = 0.368)' noenhanced, \
     'kernel_decay.dat' index 1 using 1:2 with lines title 'A = -1, Δ = 0.2 (Ā = 0.819)' noenhanced, \
     'kernel_decay.dat' index 2 using 1:2 with lines title 'A = -1, Δ = 0.05 (Ā = 0.951)' noenhanced, \
     'kernel_decay.dat' index 3 using 1:2 with lines title 'A = -0.1, Δ = 0.2 (Ā = 0.980)' noenhanced, \
     'kernel_decay.dat' index 4 using 1:2 with lines title 'A = -0.1, Δ = 0.05 (Ā = 0.995)' noenhanced
unset output
