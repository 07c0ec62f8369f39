# S4D-Lin basis kernels 2 Re(B̄_n Ā_n^ℓ) (Δ = 0.01) -- run `gnuplot s4d_lin_basis.gp` in this directory
set terminal svg size 760,460 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 's4d_lin_basis.svg'
set title 'S4D-Lin basis kernels 2 Re(B̄_n Ā_n^ℓ) (Δ = 0.01)'
set xlabel 'lag ℓ'
set ylabel 'value'
set grid lc rgb '#dddddd'
set key outside right top box opaque
set key outside right top
set xzeroaxis
plot 's4d_lin_basis.dat' index 0 using 1:2 with lines lw 2 title 'n = 0' noenhanced, \
     's4d_lin_basis.dat' index 1 using 1:2 with lines lw 2 title 'n = 1' noenhanced, \
     's4d_lin_basis.dat' index 2 using 1:2 with lines lw 2 title 'n = 2' noenhanced, \
     's4d_lin_basis.dat' index 3 using 1:2 with lines lw 2 title 'n = 4' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 's4d_lin_basis.txt'
set title 'S4D-Lin basis kernels 2 Re(B̄_n Ā_n^ℓ) (Δ = 0.01)' noenhanced
set xlabel 'lag ℓ' noenhanced
set ylabel 'value' noenhanced
set key below
set key outside right top
set xzeroaxis
plot 's4d_lin_basis.dat' index 0 using 1:2 with lines title 'n = 0' noenhanced, \
     's4d_lin_basis.dat' index 1 using 1:2 with lines title 'n = 1' noenhanced, \
     's4d_lin_basis.dat' index 2 using 1:2 with lines title 'n = 2' noenhanced, \
     's4d_lin_basis.dat' index 3 using 1:2 with lines title 'n = 4' noenhanced
unset output
