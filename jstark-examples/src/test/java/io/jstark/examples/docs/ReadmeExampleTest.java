package io.jstark.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.air.trace.TableTrace;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.VerifiedStatement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's Java example, run as written: the code between the markers below must be the README's
 * snippet line for line (so the docs work when pasted), and it must prove and verify.
 */
class ReadmeExampleTest {
    @Test
    void theReadmeExampleProvesAndVerifies() throws Exception {
        List<VerifiedStatement> verified = new ArrayList<>();
        long[] expectedResult = new long[1];
        // README-BEGIN
        // 1. Describe the table: columns, public inputs, constraints (degrees are derived).
        AirBuilder b = Air.builder("fibonacci");
        Expr.MainCell x = b.main("x");
        Expr.MainCell y = b.main("y");
        Expr result = b.publicInput("result");
        b.transition("x' = y", x.next().sub(y));
        b.transition("y' = x + y", y.next().sub(x.add(y)));
        b.first("x starts at 1", x.sub(1));
        b.first("y starts at 1", y.sub(1));
        b.last("y ends at the result", y.sub(result));
        Air fib = b.build();

        // 2. Fill a trace of 2^k rows (off-heap, column by column).
        int n = 1 << 16;
        long[] xs = new long[n];
        long[] ys = new long[n];
        xs[0] = 1;
        ys[0] = 1;
        for (int i = 1; i < n; i++) {
            xs[i] = ys[i - 1];
            ys[i] = Goldilocks.add(xs[i - 1], ys[i - 1]);
        }
        try (Matrix trace = Matrix.allocate(RamAllocator.shared(), "fibonacci", n, 2)) {
            trace.writeColumn(0, 0, xs, 0, n);
            trace.writeColumn(1, 0, ys, 0, n);

            // 3. Prove (100-bit preset, tables on the concurrent scheduler, storage planned from the shapes)...
            try (JstarkProver prover = Jstark.prover(List.of(fib)).build()) {
                List<TableTrace> traces = List.of(TableTrace.of(fib, trace, ys[n - 1]));
                byte[] proof = prover.prove(traces).bytes();
                // 4. ...ship the verifying key (its bytes; loading them recomputes nothing)...
                byte[] keyBytes = prover.verifyingKey().toBytes();
                VerifyingKey key = VerifyingKey.read(keyBytes, List.of(fib));
                // 5. ...and verify exactly the claim: this table, 2^16 rows, this result (else a typed rejection).
                Statement expected = Statement.of(Statement.table("fibonacci", fib, 16, ys[n - 1]));
                VerifiedStatement statement = Jstark.verify(key, expected, proof);
                System.out.println(statement.tables());
                verified.add(statement); // test only
                expectedResult[0] = ys[n - 1]; // test only
            }
        }
        // README-END
        VerifiedStatement statement = verified.getFirst();
        assertThat(statement.tables()).hasSize(1);
        assertThat(statement.table("fibonacci").publicInputs()).containsExactly(expectedResult[0]);
        assertThat(statement.conjecturedSecurityBits()).isGreaterThanOrEqualTo(100);
    }

    @Test
    void theReadmeShowsExactlyThisCode() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("README.md"))
                || !Files.exists(root.resolve("pom.xml"))
                || root.getFileName().toString().startsWith("jstark-")) {
            root = root.getParent();
        }
        List<String> readme = snippet(Files.readAllLines(root.resolve("README.md")), "```java", "```");
        List<String> test = snippet(
                Files.readAllLines(
                        root.resolve("jstark-examples/src/test/java/io/jstark/examples/docs/ReadmeExampleTest.java")),
                "// README-BEGIN",
                "// README-END");
        assertThat(readme).as("README's java block vs this test").isEqualTo(test);
    }

    /**
     * The trimmed, non-empty lines between the first line equal to {@code begin} and the next {@code end},
     * without the lines marked "test only".
     */
    private static List<String> snippet(List<String> lines, String begin, String end) {
        List<String> out = new ArrayList<>();
        boolean inside = false;
        for (String line : lines) {
            String t = line.strip();
            if (!inside && t.equals(begin)) {
                inside = true;
            } else if (inside && t.equals(end)) {
                break;
            } else if (inside && !t.isEmpty() && !t.endsWith("// test only")) {
                out.add(t);
            }
        }
        return out;
    }
}
