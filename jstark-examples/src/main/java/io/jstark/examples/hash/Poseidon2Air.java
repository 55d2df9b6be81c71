package io.jstark.examples.hash;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.math.field.Goldilocks;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Poseidon2 table over Goldilocks in the layout of Plonky3's poseidon2-air: each row proves
 * {@code permutationsPerRow} independent permutations, each in a block of columns: its input (width),
 * then per full round the S-box cubes (x + c)^3 and the round's output (2 x width), and per partial round
 * the cube and the S-box output of element 0 (2). Each committed cube keeps the S-box x^7 = cube^2 * x at
 * degree 3. Every constraint holds on every row and reads that row alone; the linear layers are folded
 * into the expressions, so the state between committed values costs no column.
 *
 * <p>Width 8: 180 columns and 172 constraints per permutation (1,440 and 1,376 at 8 per row); width 12:
 * 248 and 236 (1,984 and 1,888 at 8 per row).
 */
public final class Poseidon2Air {
    /** Plonky3's example packs 8 permutations per row. */
    public static final int DEFAULT_PERMUTATIONS_PER_ROW = 8;

    private static final Air WIDTH_8 = build(Poseidon2Goldilocks.WIDTH_8, DEFAULT_PERMUTATIONS_PER_ROW);
    private static final Air WIDTH_12 = build(Poseidon2Goldilocks.WIDTH_12, DEFAULT_PERMUTATIONS_PER_ROW);

    private Poseidon2Air() {}

    /**
     * {@return the table of width {@code width} with 8 permutations per row, one definition per width}
     *
     * @param width 8 or 12
     * @throws IllegalArgumentException for another width
     */
    public static Air of(int width) {
        return Poseidon2Goldilocks.ofWidth(width) == Poseidon2Goldilocks.WIDTH_8 ? WIDTH_8 : WIDTH_12;
    }

    /**
     * {@return a table for {@code permutationsPerRow} permutations of {@code instance} per row, named "poseidon2-w{width}x{count}"}
     *
     * @param instance the permutation
     * @param permutationsPerRow 1 or more
     */
    public static Air build(Poseidon2Goldilocks instance, int permutationsPerRow) {
        if (permutationsPerRow < 1) {
            throw new IllegalArgumentException("Poseidon2 table: " + permutationsPerRow + " permutations per row");
        }
        int width = instance.width();
        AirBuilder b = Air.builder("poseidon2-w" + width + "x" + permutationsPerRow);
        long[][] external = instance.externalMatrix();
        for (int p = 0; p < permutationsPerRow; p++) {
            String perm = "p" + p + " ";
            Expr.MainCell[] input = b.mainRange(perm.strip() + ".input", width);
            LinearForm[] state = LinearForm.multiply(external, LinearForm.of(input));
            for (int r = 0; r < Poseidon2Goldilocks.HALF_FULL_ROUNDS; r++) {
                state = fullRound(b, instance, external, state, r, perm + "full round " + r);
            }
            for (int r = 0; r < Poseidon2Goldilocks.PARTIAL_ROUNDS; r++) {
                String round = perm + "partial round " + r;
                Expr x = state[0].plus(instance.partialConstant(r)).toExpr();
                Expr.MainCell cube = b.main(round + " cube");
                Expr.MainCell out = b.main(round + " sbox");
                b.everyRow(round + ": cube = (s0 + c)^3", cube.sub(x.mul(x).mul(x)));
                b.everyRow(
                        round + ": sbox = cube^2 (s0 + c)",
                        out.sub(cube.square().mul(x)));
                state[0] = LinearForm.of(out);
                LinearForm sum = state[0];
                for (int i = 1; i < width; i++) {
                    sum = sum.plus(state[i]);
                }
                LinearForm[] next = new LinearForm[width];
                for (int i = 0; i < width; i++) {
                    next[i] = state[i].times(instance.diagonal(i)).plus(sum);
                }
                state = next;
            }
            for (int r = Poseidon2Goldilocks.HALF_FULL_ROUNDS; r < 2 * Poseidon2Goldilocks.HALF_FULL_ROUNDS; r++) {
                state = fullRound(b, instance, external, state, r, perm + "full round " + r);
            }
        }
        return b.build();
    }

    private static LinearForm[] fullRound(
            AirBuilder b, Poseidon2Goldilocks instance, long[][] external, LinearForm[] state, int r, String round) {
        int width = state.length;
        Expr.MainCell[] cubes = b.mainRange(round + " cube", width);
        Expr.MainCell[] outs = b.mainRange(round + " out", width);
        Expr[] sboxes = new Expr[width];
        for (int i = 0; i < width; i++) {
            Expr x = state[i].plus(instance.fullConstant(r, i)).toExpr();
            b.everyRow(
                    round + ": cube[" + i + "] = (s + c)^3",
                    cubes[i].sub(x.mul(x).mul(x)));
            sboxes[i] = cubes[i].square().mul(x);
        }
        Expr[] mixed = multiply(external, sboxes);
        for (int i = 0; i < width; i++) {
            b.everyRow(round + ": out[" + i + "] = M_E sbox", outs[i].sub(mixed[i]));
        }
        return LinearForm.of(outs);
    }

    /**
     * The state between committed values as sums of coefficient times column plus a constant, kept flat: the
     * partial rounds' linear layers would otherwise nest each element's expression in the next round's 8 (or
     * 12), a tree that grows exponentially with the rounds however much of it is shared.
     */
    private record LinearForm(Map<Expr.MainCell, Long> terms, long constant) {
        static LinearForm of(Expr.MainCell cell) {
            return new LinearForm(Map.of(cell, 1L), 0);
        }

        static LinearForm[] of(Expr.MainCell[] cells) {
            LinearForm[] out = new LinearForm[cells.length];
            for (int i = 0; i < cells.length; i++) {
                out[i] = of(cells[i]);
            }
            return out;
        }

        static LinearForm[] multiply(long[][] m, LinearForm[] v) {
            LinearForm[] out = new LinearForm[m.length];
            for (int i = 0; i < m.length; i++) {
                LinearForm sum = new LinearForm(Map.of(), 0);
                for (int j = 0; j < v.length; j++) {
                    sum = sum.plus(v[j].times(m[i][j]));
                }
                out[i] = sum;
            }
            return out;
        }

        LinearForm plus(long c) {
            return new LinearForm(terms, Goldilocks.add(constant, c));
        }

        LinearForm plus(LinearForm other) {
            Map<Expr.MainCell, Long> sum = new LinkedHashMap<>(terms);
            for (Map.Entry<Expr.MainCell, Long> t : other.terms.entrySet()) {
                sum.merge(t.getKey(), t.getValue(), Goldilocks::add);
            }
            sum.values().removeIf(c -> c == 0);
            return new LinearForm(sum, Goldilocks.add(constant, other.constant));
        }

        LinearForm times(long c) {
            Map<Expr.MainCell, Long> scaled = new LinkedHashMap<>();
            if (c != 0) {
                for (Map.Entry<Expr.MainCell, Long> t : terms.entrySet()) {
                    scaled.put(t.getKey(), Goldilocks.mul(t.getValue(), c));
                }
            }
            return new LinearForm(scaled, Goldilocks.mul(constant, c));
        }

        Expr toExpr() {
            Expr sum = null;
            for (Map.Entry<Expr.MainCell, Long> t : terms.entrySet()) {
                // coefficients are canonical elements, often above 2^63: Const, not the signed mul(long)
                Expr term = t.getValue() == 1 ? t.getKey() : t.getKey().mul(new Expr.Const(t.getValue()));
                sum = sum == null ? term : sum.add(term);
            }
            if (sum == null) {
                return new Expr.Const(constant);
            }
            return constant == 0 ? sum : sum.add(new Expr.Const(constant));
        }
    }

    private static Expr[] multiply(long[][] m, Expr[] v) {
        Expr[] out = new Expr[m.length];
        for (int i = 0; i < m.length; i++) {
            Expr sum = null;
            for (int j = 0; j < v.length; j++) {
                long c = m[i][j];
                if (c == 0) {
                    continue;
                }
                Expr term = c == 1 ? v[j] : v[j].mul(c);
                sum = sum == null ? term : sum.add(term);
            }
            out[i] = sum;
        }
        return out;
    }
}
