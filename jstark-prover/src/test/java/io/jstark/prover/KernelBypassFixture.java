package io.jstark.prover;

import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProver;
import io.jstark.math.field.FieldKernels;
import io.jstark.math.memory.BufferAllocator;
import io.jstark.math.memory.Matrix;
import io.jstark.math.ntt.Lde;
import io.jstark.math.parallel.WorkerPool;
import java.util.function.IntConsumer;

/** Kernel calls that bypass the seams, never run: {@link KernelSeamArchitectureTest} must find each. */
final class KernelBypassFixture {
    private KernelBypassFixture() {}

    static MerkleTree bypass(
            Matrix trace,
            Matrix lde,
            Hasher hasher,
            WorkerPool pool,
            BufferAllocator allocator,
            Transcript t,
            HostCommitment commitment,
            CpuProofSession session) {
        t.grind(1, pool);
        io.jstark.air.logup.AuxTraceBuilder.build(
                "t", null, trace, null, new long[0], new io.jstark.math.field.Ext3[0], allocator, pool);
        io.jstark.math.poly.Barycentric.forCoset(
                1, 7, io.jstark.math.field.Ext3.ONE, io.jstark.math.poly.Barycentric.Order.BIT_REVERSED, pool);
        DeepQuotient.divideScratchBytes(1, 1);
        session.commitMain();
        Lde.extend(trace, 1, 7, lde, pool);
        FriProver.commit("t", lde, 7, 1, new FriParameters(1, 0), t, hasher, pool, allocator)
                .close();
        long[] a = new long[1];
        IntConsumer add = length -> FieldKernels.add(a, 0, a, 0, a, 0, length);
        add.accept(1);
        CpuKernels.INSTANCE.extend(trace, 1, 7, lde, pool);
        HostKernels.cpu().extend(trace, 1, 7, commitment.lde(), pool);
        return MerkleTree.commit(lde, 1, hasher, pool, allocator);
    }
}
