package io.jstark.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jstark.air.trace.TableTrace;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The largest valid proof, as a function of the format, the tables and the options: every honest proof
 * fits it, and the verifier refuses longer input before reading it and reads no further than it.
 */
class ProofBoundTest {
    @Property(tries = 40)
    void everyHonestProofFitsTheBoundOfItsStatement(
            @ForAll @IntRange(min = 3, max = 8) int logHeight,
            @ForAll @IntRange(min = 1, max = 3) int logBlowup,
            @ForAll @IntRange(min = 1, max = 40) int queries,
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 3) int logFinal,
            @ForAll @IntRange(min = 0, max = 2) int kind)
            throws Exception {
        ProofOptions options = new ProofOptions(logBlowup, queries, 1, logFolding, logFinal, "sha256", 0);
        String which = List.of("fib", "cube", "bus").get(kind);
        List<TableTrace> traces = switch (which) {
            case "fib" -> List.of(TestAirs.fibTrace(logHeight, 5));
            case "cube" -> List.of(TestAirs.cubeTrace(logHeight, 5));
            default -> {
                TableTrace sender = TestAirs.senderTrace("sender", logHeight, 5);
                yield List.of(sender, TestAirs.bytesTrace(sender));
            }
        };
        List<io.jstark.air.Air> airs = new ArrayList<>();
        for (TableTrace t : traces) {
            airs.add(t.air());
        }
        try (ProvingKey key = ProvingKey.of(airs)) {
            if (options.blowup() < traces.getFirst().air().compositionParts(logHeight)) {
                return; // the statement rules refuse it: nothing to bound
            }
            byte[] proof = ProofFormat.write(new StarkProver(key, options, ProverSettings.defaults()).prove(traces));
            Statement expected = Statement.ofTraces(traces);
            VerifyingKey exact = key.verifyingKey(options, WorkerPool.common());
            long bound = StarkVerifier.maxProofBytes(exact, expected);
            assertThat((long) proof.length).isLessThanOrEqualTo(bound);
            List<ProofFormat.TableLayout> layouts = new ArrayList<>();
            for (TableTrace t : traces) {
                layouts.add(ProofFormat.TableLayout.of(t.name(), t.air(), t.logHeight()));
            }
            assertThat(ProofFormat.maxBytes(options, layouts)).isEqualTo(bound);
            if (which.equals("fib")) {
                // a key accepting any options bounds every one of them, so at least this one
                VerifyingKey any = VerifyingKey.builder(airs).acceptAtLeast(0).build();
                assertThat(StarkVerifier.maxProofBytes(any, expected)).isGreaterThanOrEqualTo(bound);
            }
        } finally {
            TestAirs.close(traces);
        }
    }

    @Property(tries = 1)
    void longerInputIsRefusedUnreadAndAStreamIsReadNoFurtherThanTheBound() throws Exception {
        TableTrace trace = TestAirs.fibTrace(5, 1);
        try {
            ProofOptions options = new ProofOptions(2, 8, 2, 1, 1, "sha256", 0);
            byte[] proof;
            try (ProvingKey key = ProvingKey.of(List.of(TestAirs.FIB))) {
                proof = ProofFormat.write(
                        new StarkProver(key, options, ProverSettings.defaults()).prove(List.of(trace)));
            }
            VerifyingKey key =
                    VerifyingKey.builder(List.of(TestAirs.FIB)).accept(options).build();
            Statement expected = Statement.ofTraces(List.of(trace));
            long bound = StarkVerifier.maxProofBytes(key, expected);
            assertThat(StarkVerifier.verify(key, expected, new ByteArrayInputStream(proof))
                            .tables())
                    .hasSize(1);
            byte[] padded = java.util.Arrays.copyOf(proof, (int) bound + 1);
            assertThatThrownBy(() -> StarkVerifier.verify(key, expected, padded))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.TOO_LARGE)
                    .hasMessageContaining("more than the " + bound);
            // a stream that never ends after a valid proof: rejected, having read at most one buffer past the bound
            CountingStream endless =
                    new CountingStream(new SequenceInputStream(new ByteArrayInputStream(proof), new Zeros()));
            assertThatThrownBy(() -> StarkVerifier.verify(key, expected, endless))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasMessageContaining("unexpected bytes after the proof's last part");
            assertThat(endless.read).isLessThanOrEqualTo(bound + (1 << 16));
            // a stream whose declared sizes outgrow the bound: rejected as soon as a length passes what is left of it
            byte[] header = java.util.Arrays.copyOf(proof, proof.length);
            Proof parsed = ProofFormat.read(proof);
            // past the main phase's member count and its first member's block count: the elements per block
            int perBlockAt = (int) ProofFormat.writeWithSizes(parsed).sizes().offsetOf("main phase values") + 2 + 4;
            header[perBlockAt + 3] = 0x7F; // about 2^31 elements per block
            CountingStream huge =
                    new CountingStream(new SequenceInputStream(new ByteArrayInputStream(header), new Zeros()));
            assertThatThrownBy(() -> StarkVerifier.verify(key, expected, huge))
                    .isInstanceOf(ProofRejectedException.class)
                    .hasFieldOrPropertyWithValue("reason", Reason.MALFORMED)
                    .hasMessageContaining("main opened blocks");
            assertThat(huge.read).isLessThanOrEqualTo(bound + (1 << 16));
        } finally {
            trace.main().close();
        }
    }

    /** Zeros forever. */
    static final class Zeros extends InputStream {
        @Override
        public int read() {
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) 0);
            return len;
        }
    }

    /** Counts the bytes read through it. */
    static final class CountingStream extends InputStream {
        private final InputStream in;
        long read;

        CountingStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            read += b >= 0 ? 1 : 0;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            read += Math.max(0, n);
            return n;
        }
    }
}
