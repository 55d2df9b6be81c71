package io.jstark.bench.stark;

import io.jstark.air.Air;
import io.jstark.air.Constraint;
import io.jstark.air.batch.TraceBatchSource;
import io.jstark.air.expr.Expr;
import io.jstark.air.program.ConstraintProgram;
import io.jstark.examples.KeccakExample;
import io.jstark.examples.Poseidon2Example;
import io.jstark.examples.Workload;
import io.jstark.math.memory.RamAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The constraint interpreter on a wide table, one thread: the user constraints of the Keccak-f table (3,182
 * constraints, 32,812 instructions per row) or the width-8 Poseidon2 table (1,376, 20,560) evaluated over
 * 2^12 rows of a real trace in batches of {@code batch} rows (the prover's composition uses 512). One
 * operation is the 4,096 rows; instructions x rows per second = 4,096 x instructions / score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g",
        "-XX:+UseParallelGC"})
public class WideConstraintBenchmark {
    private static final int LOG_ROWS = 12;

    @Param({"keccak", "poseidon2"})
    public String table;

    @Param({"32", "128", "512"})
    public int batch;

    private Workload workload;
    private ConstraintProgram.Bound program;
    private ConstraintProgram.Workspace workspace;
    private TraceBatchSource source;

    @Setup(Level.Trial)
    public void setup() {
        workload = table.equals("keccak") ? new KeccakExample().generate(LOG_ROWS, 1, RamAllocator.shared())
                : new Poseidon2Example().generate(LOG_ROWS, 1, RamAllocator.shared());
        var trace = workload.tables().getFirst();
        Air air = trace.air();
        List<Expr> exprs = new ArrayList<>();
        for (Constraint c : air.userConstraints()) {
            exprs.add(c.expr());
        }
        ConstraintProgram compiled = ConstraintProgram.compile(exprs);
        program = compiled.bind(leaf -> null);
        workspace = program.newWorkspace(batch);
        source = new TraceBatchSource(air, trace.main(), null, null);
        System.out.println(air.name() + ": " + exprs.size() + " constraints, " + compiled.instructionCount() + " instructions per row, "
                + compiled.workspaceBytes(batch) / 1024 + " KiB of registers at batch " + batch);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workload.close();
    }

    @Benchmark
    public long evaluate() {
        long sink = 0;
        int rows = 1 << LOG_ROWS;
        for (int from = 0; from < rows; from += batch) {
            program.evaluate(workspace, source, from, batch);
            sink += workspace.output(0, 0)[0];
        }
        return sink;
    }
}
