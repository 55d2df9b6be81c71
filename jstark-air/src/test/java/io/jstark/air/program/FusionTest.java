package io.jstark.air.program;

import static io.jstark.air.program.ConstraintProgramTest.assertPointValues;
import static io.jstark.air.program.ConstraintProgramTest.randomExpr;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgramTest.RandomRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The interpreter's fused runs: which shapes fuse, and that a fused program's values are the point evaluator's. */
class FusionTest {
    private static Expr cell(int column) {
        return new Expr.MainCell(column, 0);
    }

    private static Expr xor(Expr a, Expr b) {
        return a.add(b).sub(a.mul(b).mul(2));
    }

    private static Map<Fusion.Kind, Integer> runs(List<Expr> outputs) {
        ConstraintProgram.Bound bound = ConstraintProgram.compile(outputs)
                .bind(new RandomRows(new Random(1), 1)::uniform, ConstraintProgram.Engine.INTERPRETED);
        return ((Interpreter) bound.evaluator()).fusedRuns();
    }

    /** The bit arithmetic of a Keccak round: a xor, a bit check, a weighted sum, an and-not. */
    @Test
    void eachShapeOfBitArithmeticRunsAsOneFusedRun() {
        assertThat(runs(List.of(xor(cell(0), cell(1))))).containsExactly(Map.entry(Fusion.Kind.XOR, 1));
        assertThat(runs(List.of(cell(0).mul(cell(0).sub(1))))).containsExactly(Map.entry(Fusion.Kind.MUL_OFFSET, 1));
        assertThat(runs(List.of(cell(0).add(cell(1).mul(1L << 20)))))
                .containsExactly(Map.entry(Fusion.Kind.ADD_SCALED, 1));
        assertThat(runs(List.of(cell(0).sub(cell(1).mul(3))))).containsExactly(Map.entry(Fusion.Kind.ADD_SCALED, 1));
        assertThat(runs(List.of(cell(2).sub(cell(1).mul(cell(2))))))
                .containsExactly(Map.entry(Fusion.Kind.SUB_PRODUCT, 1));
        // a weighted sum of three xors: each xor, then each scaled addition of it
        Expr weighted = xor(cell(0), cell(1))
                .add(xor(cell(1), cell(2)).mul(2))
                .add(xor(cell(2), cell(3)).mul(4));
        assertThat(runs(List.of(weighted)))
                .containsExactly(Map.entry(Fusion.Kind.XOR, 3), Map.entry(Fusion.Kind.ADD_SCALED, 2));
    }

    /** A product read twice is needed after the run would end, and a xor by 3 is not a xor: neither fuses. */
    @Test
    void aProductWithAnotherUseOrAnotherConstantDoesNotFuse() {
        Expr product = cell(0).mul(cell(1));
        assertThat(runs(List.of(cell(2).sub(product), product.add(cell(3))))).isEmpty();
        assertThat(runs(List.of(cell(0).add(cell(1)).sub(cell(0).mul(cell(1)).mul(3)))))
                .doesNotContainKey(Fusion.Kind.XOR);
    }

    /**
     * Near misses: an intermediate of a xor (its sum, its product, its doubled product) that is also an output or has
     * another reader, and pairs whose second instruction reads the first twice ((x - 5)^2, 7x + 7x, (xw)(xw)). Their
     * values stay the point evaluator's; each of Fusion's checks that the intermediates have no outside use and that
     * the second instruction's operands differ is needed for one of them.
     */
    @Test
    void intermediatesWithOtherUsesAndOperandsReadTwiceKeepTheirValues() {
        Expr x = cell(0), y = cell(1), w = cell(2);
        Expr s = x.add(y), p = x.mul(y), d = x.mul(y).mul(2);
        List<List<Expr>> programs = List.of(
                List.of(xor(x, y), s),
                List.of(xor(x, y), p),
                List.of(xor(x, y), d),
                List.of(xor(x, y), s, x.mul(w), y.mul(w)),
                List.of(xor(x, y), d, x.mul(w), y.mul(w)),
                List.of(xor(x, y).mul(w), s.mul(w)),
                List.of(xor(x, y).mul(w), d.add(w)),
                List.of(xor(x, y).add(d.mul(w))),
                List.of(x.sub(5).square()),
                List.of(x.mul(7).add(x.mul(7))),
                List.of(x.mul(7).sub(x.mul(7)).add(w)),
                List.of(x.mul(w).mul(x.mul(w))),
                List.of(x.mul(y).sub(x.mul(y)).add(w)),
                List.of(new Expr.Challenge(0).mul(x).add(new Expr.Challenge(0).mul(x))));
        for (List<Expr> outputs : programs) {
            for (int batch : new int[] {5, 64}) {
                RandomRows data = new RandomRows(new Random(13), 100);
                ConstraintProgram.Bound bound =
                        ConstraintProgram.compile(outputs).bind(data::uniform, ConstraintProgram.Engine.INTERPRETED);
                assertPointValues(bound, outputs, data, 100, batch);
            }
        }
    }

    /**
     * Random mixtures of the fused shapes over random subexpressions (shared ones too), in batches long enough for
     * the vector kernels and short enough for their scalar tails.
     */
    @Property(tries = 60)
    void programsOfFusedShapesMatchPointEvaluation(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 150) int rows,
            @ForAll @IntRange(min = 1, max = 80) int batch) {
        Random rnd = new Random(seed);
        List<Expr> pool = new ArrayList<>();
        List<Expr> outputs = new ArrayList<>();
        for (int k = 0, count = 1 + rnd.nextInt(4); k < count; k++) {
            Expr e = shape(rnd, pool, 3);
            outputs.add(
                    rnd.nextBoolean()
                            ? e
                            : new Expr.Coefficient(rnd.nextInt(3)).mul(e).add(shape(rnd, pool, 1)));
        }
        RandomRows data = new RandomRows(rnd, rows);
        ConstraintProgram.Bound bound =
                ConstraintProgram.compile(outputs).bind(data::uniform, ConstraintProgram.Engine.INTERPRETED);
        assertPointValues(bound, outputs, data, rows, batch);
    }

    private static Expr shape(Random rnd, List<Expr> pool, int depth) {
        if (depth == 0) {
            // mostly base-field cells, where the shapes fuse; any expression otherwise
            return rnd.nextInt(3) < 2 ? new Expr.MainCell(rnd.nextInt(4), rnd.nextInt(2)) : randomExpr(rnd, 2, pool);
        }
        Expr a = shape(rnd, pool, depth - 1), b = shape(rnd, pool, depth - 1);
        long c = rnd.nextBoolean() ? 1 + rnd.nextInt(1 << 16) : ConstraintProgramTest.edgeOrRandom(rnd);
        Expr e = switch (rnd.nextInt(6)) {
            case 0 -> {
                // the xor's sum, product and doubled product may be read again elsewhere: then it must not fuse
                Expr sum = a.add(b), product = a.mul(b), doubled = product.mul(2);
                if (rnd.nextInt(4) == 0) {
                    pool.add(List.of(sum, product, doubled).get(rnd.nextInt(3)));
                }
                yield sum.sub(doubled);
            }
            case 1 -> a.add(b.mul(c));
            case 2 -> a.sub(b.mul(c));
            case 3 -> a.sub(b.mul(shape(rnd, pool, depth - 1)));
            case 4 -> a.mul(b.sub(c));
            default -> b.mul(b.sub(c)).mul(b.sub(c + 2));
        };
        pool.add(e);
        return e;
    }
}
