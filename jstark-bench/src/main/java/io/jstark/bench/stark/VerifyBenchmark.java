package io.jstark.bench.stark;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The verifier of the zkVM-like mix (default size, 100-bit preset) with a verifying key loaded from its
 * bytes, warm: loading the key, verifying the expected statement, and rejecting a hostile proof that names
 * options outside the key's (blowup 16 instead of 8).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules",
            "jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx4g",
            "-XX:+UseParallelGC"
        })
public class VerifyBenchmark {
    private Example mix;
    private byte[] keyBytes;
    private VerifyingKey key;
    private Statement expected;
    private byte[] proof;
    private byte[] unacceptedOptions;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        mix = Examples.byName("mix");
        try (Workload workload = mix.generate(mix.defaultLogSize(), 1);
                JstarkProver prover = Jstark.prover(mix.airs())
                        .options(ProofOptions.defaults())
                        .build()) {
            proof = prover.prove(workload.tables()).bytes();
            keyBytes = prover.verifyingKey().toBytes();
            expected = Statement.ofTraces(workload.tables());
        }
        key = VerifyingKey.read(keyBytes, mix.airs());
        StarkVerifier.verify(key, expected, proof);
        unacceptedOptions = proof.clone();
        unacceptedOptions[6] = 4; // log2 blowup 4: a valid option, not the key's
        try {
            StarkVerifier.verify(key, expected, unacceptedOptions);
            throw new IllegalStateException("the hostile proof verified");
        } catch (ProofRejectedException e) {
            if (e.reason() != ProofRejectedException.Reason.UNACCEPTED_OPTIONS) {
                throw new IllegalStateException("rejected for another reason: " + e.getMessage(), e);
            }
        }
        System.out.println("proof " + proof.length + " bytes, key " + keyBytes.length
                + " bytes, largest accepted proof " + StarkVerifier.maxProofBytes(key, expected) + " bytes");
    }

    @Benchmark
    public VerifyingKey loadKey() throws Exception {
        return VerifyingKey.read(keyBytes, mix.airs());
    }

    @Benchmark
    public Object verifyMixWithLoadedKey() throws ProofRejectedException {
        return StarkVerifier.verify(key, expected, proof);
    }

    @Benchmark
    public Object rejectUnacceptedOptions() {
        try {
            return StarkVerifier.verify(key, expected, unacceptedOptions);
        } catch (ProofRejectedException e) {
            return e.reason();
        }
    }
}
