# Blelloch: up-sweep (a reduction tree), then down-sweep (prefixes) -- run `gnuplot blelloch.gp` in this directory
set terminal svg size 760,720 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output 'blelloch.svg'
set title 'Blelloch: up-sweep (a reduction tree), then down-sweep (prefixes)' noenhanced
set xlabel 'element j' noenhanced
set ylabel '' noenhanced
set grid lc rgb '#dddddd'
set key outside right top box opaque
set label '0' at 0,0.3 center font ',10' boxed front
set label '1' at 1,0.3 center font ',10' boxed front
set label '2' at 2,0.3 center font ',10' boxed front
set label '3' at 3,0.3 center font ',10' boxed front
set label '4' at 4,0.3 center font ',10' boxed front
set label '5' at 5,0.3 center font ',10' boxed front
set label '6' at 6,0.3 center font ',10' boxed front
set label '7' at 7,0.3 center font ',10' boxed front
set label '8' at 8,0.3 center font ',10' boxed front
set label '9' at 9,0.3 center font ',10' boxed front
set label '10' at 10,0.3 center font ',10' boxed front
set label '11' at 11,0.3 center font ',10' boxed front
set label '12' at 12,0.3 center font ',10' boxed front
set label '13' at 13,0.3 center font ',10' boxed front
set label '14' at 14,0.3 center font ',10' boxed front
set label '15' at 15,0.3 center font ',10' boxed front
set label '0' at 0,-0.7 center font ',10' boxed front
set label '0..1' at 1,-0.7 center font ',10' boxed front
set label '2' at 2,-0.7 center font ',10' boxed front
set label '2..3' at 3,-0.7 center font ',10' boxed front
set label '4' at 4,-0.7 center font ',10' boxed front
set label '4..5' at 5,-0.7 center font ',10' boxed front
set label '6' at 6,-0.7 center font ',10' boxed front
set label '6..7' at 7,-0.7 center font ',10' boxed front
set label '8' at 8,-0.7 center font ',10' boxed front
set label '8..9' at 9,-0.7 center font ',10' boxed front
set label '10' at 10,-0.7 center font ',10' boxed front
set label '10..11' at 11,-0.7 center font ',10' boxed front
set label '12' at 12,-0.7 center font ',10' boxed front
set label '12..13' at 13,-0.7 center font ',10' boxed front
set label '14' at 14,-0.7 center font ',10' boxed front
set label '14..15' at 15,-0.7 center font ',10' boxed front
set label '0' at 0,-1.7 center font ',10' boxed front
set label '0..1' at 1,-1.7 center font ',10' boxed front
set label '2' at 2,-1.7 center font ',10' boxed front
set label '0..3' at 3,-1.7 center font ',10' boxed front
set label '4' at 4,-1.7 center font ',10' boxed front
set label '4..5' at 5,-1.7 center font ',10' boxed front
set label '6' at 6,-1.7 center font ',10' boxed front
set label '4..7' at 7,-1.7 center font ',10' boxed front
set label '8' at 8,-1.7 center font ',10' boxed front
set label '8..9' at 9,-1.7 center font ',10' boxed front
set label '10' at 10,-1.7 center font ',10' boxed front
set label '8..11' at 11,-1.7 center font ',10' boxed front
set label '12' at 12,-1.7 center font ',10' boxed front
set label '12..13' at 13,-1.7 center font ',10' boxed front
set label '14' at 14,-1.7 center font ',10' boxed front
set label '12..15' at 15,-1.7 center font ',10' boxed front
set label '0' at 0,-2.7 center font ',10' boxed front
set label '0..1' at 1,-2.7 center font ',10' boxed front
set label '2' at 2,-2.7 center font ',10' boxed front
set label '0..3' at 3,-2.7 center font ',10' boxed front
set label '4' at 4,-2.7 center font ',10' boxed front
set label '4..5' at 5,-2.7 center font ',10' boxed front
set label '6' at 6,-2.7 center font ',10' boxed front
set label '0..7' at 7,-2.7 center font ',10' boxed front
set label '8' at 8,-2.7 center font ',10' boxed front
set label '8..9' at 9,-2.7 center font ',10' boxed front
set label '10' at 10,-2.7 center font ',10' boxed front
set label '8..11' at 11,-2.7 center font ',10' boxed front
set label '12' at 12,-2.7 center font ',10' boxed front
set label '12..13' at 13,-2.7 center font ',10' boxed front
set label '14' at 14,-2.7 center font ',10' boxed front
set label '8..15' at 15,-2.7 center font ',10' boxed front
set label '0' at 0,-3.7 center font ',10' boxed front
set label '0..1' at 1,-3.7 center font ',10' boxed front
set label '2' at 2,-3.7 center font ',10' boxed front
set label '0..3' at 3,-3.7 center font ',10' boxed front
set label '4' at 4,-3.7 center font ',10' boxed front
set label '4..5' at 5,-3.7 center font ',10' boxed front
set label '6' at 6,-3.7 center font ',10' boxed front
set label '0..7' at 7,-3.7 center font ',10' boxed front
set label '8' at 8,-3.7 center font ',10' boxed front
set label '8..9' at 9,-3.7 center font ',10' boxed front
set label '10' at 10,-3.7 center font ',10' boxed front
set label '8..11' at 11,-3.7 center font ',10' boxed front
set label '12' at 12,-3.7 center font ',10' boxed front
set label '12..13' at 13,-3.7 center font ',10' boxed front
set label '14' at 14,-3.7 center font ',10' boxed front
set label '0..15' at 15,-3.7 center font ',10' boxed front
set label '0' at 0,-4.7 center font ',10' boxed front
set label '0..1' at 1,-4.7 center font ',10' boxed front
set label '2' at 2,-4.7 center font ',10' boxed front
set label '0..3' at 3,-4.7 center font ',10' boxed front
set label '4' at 4,-4.7 center font ',10' boxed front
set label '4..5' at 5,-4.7 center font ',10' boxed front
set label '6' at 6,-4.7 center font ',10' boxed front
set label '0..7' at 7,-4.7 center font ',10' boxed front
set label '8' at 8,-4.7 center font ',10' boxed front
set label '8..9' at 9,-4.7 center font ',10' boxed front
set label '10' at 10,-4.7 center font ',10' boxed front
set label '8..11' at 11,-4.7 center font ',10' boxed front
set label '12' at 12,-4.7 center font ',10' boxed front
set label '12..13' at 13,-4.7 center font ',10' boxed front
set label '14' at 14,-4.7 center font ',10' boxed front
set label '∅' at 15,-4.7 center font ',10' boxed front
set label '0' at 0,-5.7 center font ',10' boxed front
set label '0..1' at 1,-5.7 center font ',10' boxed front
set label '2' at 2,-5.7 center font ',10' boxed front
set label '0..3' at 3,-5.7 center font ',10' boxed front
set label '4' at 4,-5.7 center font ',10' boxed front
set label '4..5' at 5,-5.7 center font ',10' boxed front
set label '6' at 6,-5.7 center font ',10' boxed front
set label '∅' at 7,-5.7 center font ',10' boxed front
set label '8' at 8,-5.7 center font ',10' boxed front
set label '8..9' at 9,-5.7 center font ',10' boxed front
set label '10' at 10,-5.7 center font ',10' boxed front
set label '8..11' at 11,-5.7 center font ',10' boxed front
set label '12' at 12,-5.7 center font ',10' boxed front
set label '12..13' at 13,-5.7 center font ',10' boxed front
set label '14' at 14,-5.7 center font ',10' boxed front
set label '0..7' at 15,-5.7 center font ',10' boxed front
set label '0' at 0,-6.7 center font ',10' boxed front
set label '0..1' at 1,-6.7 center font ',10' boxed front
set label '2' at 2,-6.7 center font ',10' boxed front
set label '∅' at 3,-6.7 center font ',10' boxed front
set label '4' at 4,-6.7 center font ',10' boxed front
set label '4..5' at 5,-6.7 center font ',10' boxed front
set label '6' at 6,-6.7 center font ',10' boxed front
set label '0..3' at 7,-6.7 center font ',10' boxed front
set label '8' at 8,-6.7 center font ',10' boxed front
set label '8..9' at 9,-6.7 center font ',10' boxed front
set label '10' at 10,-6.7 center font ',10' boxed front
set label '0..7' at 11,-6.7 center font ',10' boxed front
set label '12' at 12,-6.7 center font ',10' boxed front
set label '12..13' at 13,-6.7 center font ',10' boxed front
set label '14' at 14,-6.7 center font ',10' boxed front
set label '0..11' at 15,-6.7 center font ',10' boxed front
set label '0' at 0,-7.7 center font ',10' boxed front
set label '∅' at 1,-7.7 center font ',10' boxed front
set label '2' at 2,-7.7 center font ',10' boxed front
set label '0..1' at 3,-7.7 center font ',10' boxed front
set label '4' at 4,-7.7 center font ',10' boxed front
set label '0..3' at 5,-7.7 center font ',10' boxed front
set label '6' at 6,-7.7 center font ',10' boxed front
set label '0..5' at 7,-7.7 center font ',10' boxed front
set label '8' at 8,-7.7 center font ',10' boxed front
set label '0..7' at 9,-7.7 center font ',10' boxed front
set label '10' at 10,-7.7 center font ',10' boxed front
set label '0..9' at 11,-7.7 center font ',10' boxed front
set label '12' at 12,-7.7 center font ',10' boxed front
set label '0..11' at 13,-7.7 center font ',10' boxed front
set label '14' at 14,-7.7 center font ',10' boxed front
set label '0..13' at 15,-7.7 center font ',10' boxed front
set label '∅' at 0,-8.7 center font ',10' boxed front
set label '0' at 1,-8.7 center font ',10' boxed front
set label '0..1' at 2,-8.7 center font ',10' boxed front
set label '0..2' at 3,-8.7 center font ',10' boxed front
set label '0..3' at 4,-8.7 center font ',10' boxed front
set label '0..4' at 5,-8.7 center font ',10' boxed front
set label '0..5' at 6,-8.7 center font ',10' boxed front
set label '0..6' at 7,-8.7 center font ',10' boxed front
set label '0..7' at 8,-8.7 center font ',10' boxed front
set label '0..8' at 9,-8.7 center font ',10' boxed front
set label '0..9' at 10,-8.7 center font ',10' boxed front
set label '0..10' at 11,-8.7 center font ',10' boxed front
set label '0..11' at 12,-8.7 center font ',10' boxed front
set label '0..12' at 13,-8.7 center font ',10' boxed front
set label '0..13' at 14,-8.7 center font ',10' boxed front
set label '0..14' at 15,-8.7 center font ',10' boxed front
set style textbox opaque noborder margins 0.5,0.5
set ytics ('input' -0, 'up 1' -1, 'up 2' -2, 'up 4' -3, 'up 8' -4, 'clear root' -5, 'down 8' -6, 'down 4' -7, 'down 2' -8, 'down 1' -9)
unset key
set grid noxtics noytics
set xrange [-0.8:15.8]
set yrange [-9.5:0.7]
set xtics 0,1,15
set arrow from 1,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-1.08 to 0,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-2.08 to 0,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-2.08 to 1,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-2.08 to 2,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-3.08 to 0,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-3.08 to 1,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-3.08 to 2,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-3.08 to 3,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-3.08 to 4,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-3.08 to 5,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-3.08 to 6,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-4.08 to 15,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#d62728' back
set arrow from 0,-4.08 to 0,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-4.08 to 1,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-4.08 to 2,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-4.08 to 3,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-4.08 to 4,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-4.08 to 5,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-4.08 to 6,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-4.08 to 7,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-4.08 to 8,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-4.08 to 9,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-4.08 to 10,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-4.08 to 11,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-4.08 to 12,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-4.08 to 13,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-4.08 to 14,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-5.08 to 15,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-5.08 to 15,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-5.08 to 7,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-5.08 to 0,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-5.08 to 1,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-5.08 to 2,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-5.08 to 3,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-5.08 to 4,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-5.08 to 5,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-5.08 to 6,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-5.08 to 8,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-5.08 to 9,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-5.08 to 10,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-5.08 to 11,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-5.08 to 12,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-5.08 to 13,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-5.08 to 14,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-6.08 to 7,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-6.08 to 7,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-6.08 to 3,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-6.08 to 15,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-6.08 to 15,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-6.08 to 11,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-6.08 to 0,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-6.08 to 1,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-6.08 to 2,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-6.08 to 4,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-6.08 to 5,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-6.08 to 6,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-6.08 to 8,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-6.08 to 9,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-6.08 to 10,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-6.08 to 12,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-6.08 to 13,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-6.08 to 14,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-7.08 to 3,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-7.08 to 3,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-7.08 to 1,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 7,-7.08 to 7,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-7.08 to 7,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-7.08 to 5,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 11,-7.08 to 11,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-7.08 to 11,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-7.08 to 9,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-7.08 to 15,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-7.08 to 15,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-7.08 to 13,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-7.08 to 0,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-7.08 to 2,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-7.08 to 4,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-7.08 to 6,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-7.08 to 8,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-7.08 to 10,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-7.08 to 12,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-7.08 to 14,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-8.08 to 1,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-8.08 to 1,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-8.08 to 0,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 3,-8.08 to 3,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-8.08 to 3,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-8.08 to 2,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 5,-8.08 to 5,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-8.08 to 5,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-8.08 to 4,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 7,-8.08 to 7,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-8.08 to 7,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-8.08 to 6,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 9,-8.08 to 9,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-8.08 to 9,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-8.08 to 8,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 11,-8.08 to 11,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-8.08 to 11,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-8.08 to 10,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 13,-8.08 to 13,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-8.08 to 13,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-8.08 to 12,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-8.08 to 15,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-8.08 to 15,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-8.08 to 14,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
plot 'blelloch.dat' index 0 using 1:2 with points pt 7 ps 0.9 lc rgb '#444444' title '' noenhanced
unset output
reset
set terminal dumb size 78,26 mono
set output 'blelloch.txt'
set title 'Blelloch: up-sweep (a reduction tree), then down-sweep (prefixes)' noenhanced
set xlabel 'element j' noenhanced
set ylabel '' noenhanced
set key below
set label '0' at 0,0.3 center font ',10' boxed front
set label '1' at 1,0.3 center font ',10' boxed front
set label '2' at 2,0.3 center font ',10' boxed front
set label '3' at 3,0.3 center font ',10' boxed front
set label '4' at 4,0.3 center font ',10' boxed front
set label '5' at 5,0.3 center font ',10' boxed front
set label '6' at 6,0.3 center font ',10' boxed front
set label '7' at 7,0.3 center font ',10' boxed front
set label '8' at 8,0.3 center font ',10' boxed front
set label '9' at 9,0.3 center font ',10' boxed front
set label '10' at 10,0.3 center font ',10' boxed front
set label '11' at 11,0.3 center font ',10' boxed front
set label '12' at 12,0.3 center font ',10' boxed front
set label '13' at 13,0.3 center font ',10' boxed front
set label '14' at 14,0.3 center font ',10' boxed front
set label '15' at 15,0.3 center font ',10' boxed front
set label '0' at 0,-0.7 center font ',10' boxed front
set label '0..1' at 1,-0.7 center font ',10' boxed front
set label '2' at 2,-0.7 center font ',10' boxed front
set label '2..3' at 3,-0.7 center font ',10' boxed front
set label '4' at 4,-0.7 center font ',10' boxed front
set label '4..5' at 5,-0.7 center font ',10' boxed front
set label '6' at 6,-0.7 center font ',10' boxed front
set label '6..7' at 7,-0.7 center font ',10' boxed front
set label '8' at 8,-0.7 center font ',10' boxed front
set label '8..9' at 9,-0.7 center font ',10' boxed front
set label '10' at 10,-0.7 center font ',10' boxed front
set label '10..11' at 11,-0.7 center font ',10' boxed front
set label '12' at 12,-0.7 center font ',10' boxed front
set label '12..13' at 13,-0.7 center font ',10' boxed front
set label '14' at 14,-0.7 center font ',10' boxed front
set label '14..15' at 15,-0.7 center font ',10' boxed front
set label '0' at 0,-1.7 center font ',10' boxed front
set label '0..1' at 1,-1.7 center font ',10' boxed front
set label '2' at 2,-1.7 center font ',10' boxed front
set label '0..3' at 3,-1.7 center font ',10' boxed front
set label '4' at 4,-1.7 center font ',10' boxed front
set label '4..5' at 5,-1.7 center font ',10' boxed front
set label '6' at 6,-1.7 center font ',10' boxed front
set label '4..7' at 7,-1.7 center font ',10' boxed front
set label '8' at 8,-1.7 center font ',10' boxed front
set label '8..9' at 9,-1.7 center font ',10' boxed front
set label '10' at 10,-1.7 center font ',10' boxed front
set label '8..11' at 11,-1.7 center font ',10' boxed front
set label '12' at 12,-1.7 center font ',10' boxed front
set label '12..13' at 13,-1.7 center font ',10' boxed front
set label '14' at 14,-1.7 center font ',10' boxed front
set label '12..15' at 15,-1.7 center font ',10' boxed front
set label '0' at 0,-2.7 center font ',10' boxed front
set label '0..1' at 1,-2.7 center font ',10' boxed front
set label '2' at 2,-2.7 center font ',10' boxed front
set label '0..3' at 3,-2.7 center font ',10' boxed front
set label '4' at 4,-2.7 center font ',10' boxed front
set label '4..5' at 5,-2.7 center font ',10' boxed front
set label '6' at 6,-2.7 center font ',10' boxed front
set label '0..7' at 7,-2.7 center font ',10' boxed front
set label '8' at 8,-2.7 center font ',10' boxed front
set label '8..9' at 9,-2.7 center font ',10' boxed front
set label '10' at 10,-2.7 center font ',10' boxed front
set label '8..11' at 11,-2.7 center font ',10' boxed front
set label '12' at 12,-2.7 center font ',10' boxed front
set label '12..13' at 13,-2.7 center font ',10' boxed front
set label '14' at 14,-2.7 center font ',10' boxed front
set label '8..15' at 15,-2.7 center font ',10' boxed front
set label '0' at 0,-3.7 center font ',10' boxed front
set label '0..1' at 1,-3.7 center font ',10' boxed front
set label '2' at 2,-3.7 center font ',10' boxed front
set label '0..3' at 3,-3.7 center font ',10' boxed front
set label '4' at 4,-3.7 center font ',10' boxed front
set label '4..5' at 5,-3.7 center font ',10' boxed front
set label '6' at 6,-3.7 center font ',10' boxed front
set label '0..7' at 7,-3.7 center font ',10' boxed front
set label '8' at 8,-3.7 center font ',10' boxed front
set label '8..9' at 9,-3.7 center font ',10' boxed front
set label '10' at 10,-3.7 center font ',10' boxed front
set label '8..11' at 11,-3.7 center font ',10' boxed front
set label '12' at 12,-3.7 center font ',10' boxed front
set label '12..13' at 13,-3.7 center font ',10' boxed front
set label '14' at 14,-3.7 center font ',10' boxed front
set label '0..15' at 15,-3.7 center font ',10' boxed front
set label '0' at 0,-4.7 center font ',10' boxed front
set label '0..1' at 1,-4.7 center font ',10' boxed front
set label '2' at 2,-4.7 center font ',10' boxed front
set label '0..3' at 3,-4.7 center font ',10' boxed front
set label '4' at 4,-4.7 center font ',10' boxed front
set label '4..5' at 5,-4.7 center font ',10' boxed front
set label '6' at 6,-4.7 center font ',10' boxed front
set label '0..7' at 7,-4.7 center font ',10' boxed front
set label '8' at 8,-4.7 center font ',10' boxed front
set label '8..9' at 9,-4.7 center font ',10' boxed front
set label '10' at 10,-4.7 center font ',10' boxed front
set label '8..11' at 11,-4.7 center font ',10' boxed front
set label '12' at 12,-4.7 center font ',10' boxed front
set label '12..13' at 13,-4.7 center font ',10' boxed front
set label '14' at 14,-4.7 center font ',10' boxed front
set label '∅' at 15,-4.7 center font ',10' boxed front
set label '0' at 0,-5.7 center font ',10' boxed front
set label '0..1' at 1,-5.7 center font ',10' boxed front
set label '2' at 2,-5.7 center font ',10' boxed front
set label '0..3' at 3,-5.7 center font ',10' boxed front
set label '4' at 4,-5.7 center font ',10' boxed front
set label '4..5' at 5,-5.7 center font ',10' boxed front
set label '6' at 6,-5.7 center font ',10' boxed front
set label '∅' at 7,-5.7 center font ',10' boxed front
set label '8' at 8,-5.7 center font ',10' boxed front
set label '8..9' at 9,-5.7 center font ',10' boxed front
set label '10' at 10,-5.7 center font ',10' boxed front
set label '8..11' at 11,-5.7 center font ',10' boxed front
set label '12' at 12,-5.7 center font ',10' boxed front
set label '12..13' at 13,-5.7 center font ',10' boxed front
set label '14' at 14,-5.7 center font ',10' boxed front
set label '0..7' at 15,-5.7 center font ',10' boxed front
set label '0' at 0,-6.7 center font ',10' boxed front
set label '0..1' at 1,-6.7 center font ',10' boxed front
set label '2' at 2,-6.7 center font ',10' boxed front
set label '∅' at 3,-6.7 center font ',10' boxed front
set label '4' at 4,-6.7 center font ',10' boxed front
set label '4..5' at 5,-6.7 center font ',10' boxed front
set label '6' at 6,-6.7 center font ',10' boxed front
set label '0..3' at 7,-6.7 center font ',10' boxed front
set label '8' at 8,-6.7 center font ',10' boxed front
set label '8..9' at 9,-6.7 center font ',10' boxed front
set label '10' at 10,-6.7 center font ',10' boxed front
set label '0..7' at 11,-6.7 center font ',10' boxed front
set label '12' at 12,-6.7 center font ',10' boxed front
set label '12..13' at 13,-6.7 center font ',10' boxed front
set label '14' at 14,-6.7 center font ',10' boxed front
set label '0..11' at 15,-6.7 center font ',10' boxed front
set label '0' at 0,-7.7 center font ',10' boxed front
set label '∅' at 1,-7.7 center font ',10' boxed front
set label '2' at 2,-7.7 center font ',10' boxed front
set label '0..1' at 3,-7.7 center font ',10' boxed front
set label '4' at 4,-7.7 center font ',10' boxed front
set label '0..3' at 5,-7.7 center font ',10' boxed front
set label '6' at 6,-7.7 center font ',10' boxed front
set label '0..5' at 7,-7.7 center font ',10' boxed front
set label '8' at 8,-7.7 center font ',10' boxed front
set label '0..7' at 9,-7.7 center font ',10' boxed front
set label '10' at 10,-7.7 center font ',10' boxed front
set label '0..9' at 11,-7.7 center font ',10' boxed front
set label '12' at 12,-7.7 center font ',10' boxed front
set label '0..11' at 13,-7.7 center font ',10' boxed front
set label '14' at 14,-7.7 center font ',10' boxed front
set label '0..13' at 15,-7.7 center font ',10' boxed front
set label '∅' at 0,-8.7 center font ',10' boxed front
set label '0' at 1,-8.7 center font ',10' boxed front
set label '0..1' at 2,-8.7 center font ',10' boxed front
set label '0..2' at 3,-8.7 center font ',10' boxed front
set label '0..3' at 4,-8.7 center font ',10' boxed front
set label '0..4' at 5,-8.7 center font ',10' boxed front
set label '0..5' at 6,-8.7 center font ',10' boxed front
set label '0..6' at 7,-8.7 center font ',10' boxed front
set label '0..7' at 8,-8.7 center font ',10' boxed front
set label '0..8' at 9,-8.7 center font ',10' boxed front
set label '0..9' at 10,-8.7 center font ',10' boxed front
set label '0..10' at 11,-8.7 center font ',10' boxed front
set label '0..11' at 12,-8.7 center font ',10' boxed front
set label '0..12' at 13,-8.7 center font ',10' boxed front
set label '0..13' at 14,-8.7 center font ',10' boxed front
set label '0..14' at 15,-8.7 center font ',10' boxed front
set style textbox opaque noborder margins 0.5,0.5
set ytics ('input' -0, 'up 1' -1, 'up 2' -2, 'up 4' -3, 'up 8' -4, 'clear root' -5, 'down 8' -6, 'down 4' -7, 'down 2' -8, 'down 1' -9)
unset key
set grid noxtics noytics
set xrange [-0.8:15.8]
set yrange [-9.5:0.7]
set xtics 0,1,15
set arrow from 1,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-0.08 to 1,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-0.08 to 3,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-0.08 to 5,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-0.08 to 7,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-0.08 to 9,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-0.08 to 11,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-0.08 to 13,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-0.08 to 15,-0.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-1.08 to 3,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-1.08 to 7,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-1.08 to 11,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-1.08 to 15,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-1.08 to 0,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-1.08 to 2,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-1.08 to 4,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-1.08 to 6,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-1.08 to 8,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-1.08 to 10,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-1.08 to 12,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-1.08 to 14,-1.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-2.08 to 7,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-2.08 to 15,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-2.08 to 0,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-2.08 to 1,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-2.08 to 2,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-2.08 to 4,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-2.08 to 5,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-2.08 to 6,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-2.08 to 8,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-2.08 to 9,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-2.08 to 10,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-2.08 to 12,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-2.08 to 13,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-2.08 to 14,-2.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-3.08 to 15,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-3.08 to 0,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-3.08 to 1,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-3.08 to 2,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-3.08 to 3,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-3.08 to 4,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-3.08 to 5,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-3.08 to 6,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-3.08 to 8,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-3.08 to 9,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-3.08 to 10,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-3.08 to 11,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-3.08 to 12,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-3.08 to 13,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-3.08 to 14,-3.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-4.08 to 15,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#d62728' back
set arrow from 0,-4.08 to 0,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-4.08 to 1,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-4.08 to 2,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-4.08 to 3,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-4.08 to 4,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-4.08 to 5,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-4.08 to 6,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-4.08 to 7,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-4.08 to 8,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-4.08 to 9,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-4.08 to 10,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-4.08 to 11,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-4.08 to 12,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-4.08 to 13,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-4.08 to 14,-4.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 15,-5.08 to 15,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-5.08 to 15,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-5.08 to 7,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-5.08 to 0,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-5.08 to 1,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-5.08 to 2,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-5.08 to 3,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-5.08 to 4,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-5.08 to 5,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-5.08 to 6,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-5.08 to 8,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-5.08 to 9,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-5.08 to 10,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 11,-5.08 to 11,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-5.08 to 12,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-5.08 to 13,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-5.08 to 14,-5.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 7,-6.08 to 7,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-6.08 to 7,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-6.08 to 3,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-6.08 to 15,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-6.08 to 15,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-6.08 to 11,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-6.08 to 0,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-6.08 to 1,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-6.08 to 2,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-6.08 to 4,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 5,-6.08 to 5,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-6.08 to 6,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-6.08 to 8,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 9,-6.08 to 9,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-6.08 to 10,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-6.08 to 12,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 13,-6.08 to 13,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-6.08 to 14,-6.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 3,-7.08 to 3,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-7.08 to 3,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-7.08 to 1,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 7,-7.08 to 7,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-7.08 to 7,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-7.08 to 5,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 11,-7.08 to 11,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-7.08 to 11,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-7.08 to 9,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-7.08 to 15,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-7.08 to 15,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-7.08 to 13,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 0,-7.08 to 0,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 2,-7.08 to 2,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 4,-7.08 to 4,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 6,-7.08 to 6,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 8,-7.08 to 8,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 10,-7.08 to 10,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 12,-7.08 to 12,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 14,-7.08 to 14,-7.92 head filled size 0.12,20 lw 1.2 lc rgb '#dddddd' back
set arrow from 1,-8.08 to 1,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 0,-8.08 to 1,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 1,-8.08 to 0,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 3,-8.08 to 3,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 2,-8.08 to 3,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 3,-8.08 to 2,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 5,-8.08 to 5,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 4,-8.08 to 5,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 5,-8.08 to 4,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 7,-8.08 to 7,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 6,-8.08 to 7,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 7,-8.08 to 6,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 9,-8.08 to 9,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 8,-8.08 to 9,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 9,-8.08 to 8,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 11,-8.08 to 11,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 10,-8.08 to 11,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 11,-8.08 to 10,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 13,-8.08 to 13,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 12,-8.08 to 13,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 13,-8.08 to 12,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
set arrow from 15,-8.08 to 15,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 14,-8.08 to 15,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#1f77b4' back
set arrow from 15,-8.08 to 14,-8.92 head filled size 0.12,20 lw 1.2 lc rgb '#ff7f0e' back
plot 'blelloch.dat' index 0 using 1:2 with lines title '' noenhanced
unset output
