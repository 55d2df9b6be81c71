import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.air.trace.TableTrace;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.Workload;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.RamAllocator;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The interpreter on a program just compiled against the same program after a full collection: the Keccak table's
 * 3,182 constraints combined by random coefficients (as WideConstraintBenchmark's combined program), 2^12 rows in
 * batches of 512, one thread. Each round compiles the program afresh, evaluates it three times (its nodes where the
 * compiler left them, among the compiler's garbage), runs System.gc() twice and evaluates it three times again (its
 * nodes compacted); it prints the median evaluation of each. Run by compiled-programs.sh with the bench jar on the
 * class path.
 */
public class ProgramLocality {
    private static final int LOG_ROWS = 12;
    private static final int BATCH = 512;
    private static final int ROUNDS = 8;
    private static final int REPS = 3;

    public static void main(String[] args) {
        try (Workload workload = new KeccakExample().generate(LOG_ROWS, 1, RamAllocator.shared())) {
            TableTrace trace = workload.tables().get(0);
            Air air = trace.air();
            TraceBatchSource source = new TraceBatchSource(air, trace.main(), null, null);
            SplittableRandom random = new SplittableRandom(1);
            double[] fresh = new double[ROUNDS];
            double[] compacted = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                ConstraintProgram program = ConstraintProgram.compile(List.of(combined(air)));
                ConstraintProgram.Bound bound = program.bind(
                        leaf -> new Ext3(
                                Goldilocks.reduce(random.nextLong()),
                                Goldilocks.reduce(random.nextLong()),
                                Goldilocks.reduce(random.nextLong())),
                        ConstraintProgram.Engine.INTERPRETED);
                ConstraintProgram.Workspace workspace = bound.newWorkspace(BATCH);
                fresh[round] = medianMillis(bound, workspace, source);
                System.gc();
                System.gc();
                compacted[round] = medianMillis(bound, workspace, source);
                System.out.printf("round %d: just compiled %.1f ms, after System.gc() %.1f ms%n",
                        round, fresh[round], compacted[round]);
            }
            // the first round also warms the JIT up: the medians are over the others
            System.out.printf("medians of rounds 1..%d: just compiled %.1f ms, after System.gc() %.1f ms per 2^%d rows%n",
                    ROUNDS - 1, median(Arrays.copyOfRange(fresh, 1, ROUNDS)),
                    median(Arrays.copyOfRange(compacted, 1, ROUNDS)), LOG_ROWS);
        }
    }

    private static Expr combined(Air air) {
        Expr sum = null;
        int k = 0;
        for (Constraint c : air.userConstraints()) {
            Expr term = new Expr.Coefficient(k++).mul(c.expr());
            sum = sum == null ? term : sum.add(term);
        }
        return sum;
    }

    private static double medianMillis(
            ConstraintProgram.Bound bound, ConstraintProgram.Workspace workspace, TraceBatchSource source) {
        double[] ms = new double[REPS];
        for (int rep = 0; rep < REPS; rep++) {
            long start = System.nanoTime();
            for (int from = 0; from < 1 << LOG_ROWS; from += BATCH) {
                bound.evaluate(workspace, source, from, BATCH);
            }
            ms[rep] = (System.nanoTime() - start) / 1e6;
        }
        return median(ms);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
