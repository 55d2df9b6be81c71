package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.expr.Expr;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a verifier of io.jstark:jstark-verifier alone writes: the table definition (the same code as the
 * prover's), the key bytes and the expected statement, then the proof. Nothing of the prover is on its
 * class path.
 */
class VerifyOnlyTest {
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
    void verifiesTheProofOfTheOtherProject() throws Exception {
        Path fixture = Path.of(System.getProperty("fixture"));
        Air fib = fibonacci();
        VerifyingKey key = VerifyingKey.read(Files.readAllBytes(fixture.resolve("fib.key")), List.of(fib));
        long result = Long.parseUnsignedLong(Files.readString(fixture.resolve("fib.result")));
        byte[] proof = Files.readAllBytes(fixture.resolve("fib.bin"));
        VerifiedStatement statement =
                StarkVerifier.verify(key, Statement.of(Statement.table("fibonacci", fib, LOG_ROWS, result)), proof);
        assertEquals(1, statement.tables().size());
        byte[] tampered = proof.clone();
        tampered[tampered.length / 2] ^= 1;
        assertThrows(
                ProofRejectedException.class,
                () -> StarkVerifier.verify(
                        key, Statement.of(Statement.table("fibonacci", fib, LOG_ROWS, result)), tampered));
    }

    @Test
    void noProverSchedulerStorageOrProfilingClassIsOnTheClassPath() {
        for (String name : List.of(
                "io.jstark.Jstark",
                "io.jstark.prover.StarkProver",
                "io.jstark.scheduler.SchedulerOptions",
                "io.jstark.storage.StorageOptions",
                "io.jstark.profile.TimelineJson")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name), name);
        }
    }
}
