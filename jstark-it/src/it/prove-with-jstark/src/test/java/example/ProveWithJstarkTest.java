package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.VerifiedStatement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a user of io.jstark:jstark writes: a table, a trace, a proof, a verification; it hands the proof on. */
class ProveWithJstarkTest {
    static final int LOG_ROWS = 10;

    static Air fibonacci() {
        AirBuilder b = Air.builder("fibonacci");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        Expr result = b.publicInput("result");
        b.transition("x' = y", x.next().sub(y));
        b.transition("y' = x + y", y.next().sub(x.add(y)));
        b.first("x starts at 1", x.sub(1));
        b.first("y starts at 1", y.sub(1));
        b.last("y ends at the result", y.sub(result));
        return b.build();
    }

    @Test
    void provesAndVerifiesWithTheOneArtifact() throws Exception {
        Air fib = fibonacci();
        int n = 1 << LOG_ROWS;
        long[] xs = new long[n];
        long[] ys = new long[n];
        xs[0] = 1;
        ys[0] = 1;
        for (int i = 1; i < n; i++) {
            xs[i] = ys[i - 1];
            ys[i] = Goldilocks.add(xs[i - 1], ys[i - 1]);
        }
        try (Matrix trace = Matrix.allocate(RamAllocator.shared(), "fibonacci", n, 2);
                JstarkProver prover = Jstark.prover(List.of(fib)).build()) {
            trace.writeColumn(0, 0, xs, 0, n);
            trace.writeColumn(1, 0, ys, 0, n);
            byte[] proof =
                    prover.prove(List.of(TableTrace.of(fib, trace, ys[n - 1]))).bytes();
            byte[] keyBytes = prover.verifyingKey().toBytes();
            VerifyingKey key = VerifyingKey.read(keyBytes, List.of(fib));
            Statement expected = Statement.of(Statement.table("fibonacci", fib, LOG_ROWS, ys[n - 1]));
            VerifiedStatement statement = Jstark.verify(key, expected, proof);
            assertEquals(1, statement.tables().size());
            Statement other = Statement.of(Statement.table("fibonacci", fib, LOG_ROWS, ys[n - 1] + 1));
            assertThrows(ProofRejectedException.class, () -> Jstark.verify(key, other, proof));

            Path fixture = Path.of(System.getProperty("fixture"));
            Files.createDirectories(fixture);
            Files.write(fixture.resolve("fib.bin"), proof);
            Files.write(fixture.resolve("fib.key"), keyBytes);
            Files.writeString(fixture.resolve("fib.result"), Long.toUnsignedString(ys[n - 1]));
        }
    }
}
