package io.jstark.examples.backend;

import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriKernels;
import io.jstark.math.field.Ext3;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.BackendMemory;
import io.jstark.prover.HostKernels;
import io.jstark.prover.ProofContext;
import io.jstark.prover.ProofPhase;
import io.jstark.prover.ProofSession;
import io.jstark.prover.ProverBackend;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.TableBuffers;
import io.jstark.prover.TableCommitment;
import io.jstark.prover.exec.SequentialExecutor;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend whose tables live out of the prover's reach, as a device's would: every table's trace is copied in
 * ("uploaded") to memory of its own ({@link #deviceMemory()}, an allocator no prover buffer comes from), every
 * call runs on its one device thread with a worker pool of its own, and the prover gets only copies back through
 * the handles (roots, leaf hashes, opened leaves, siblings, frames, and the lifted DEEP polynomial "downloaded"
 * into a host matrix). Inside, the device runs the CPU backend's session on its copies; what it proves is the cut:
 * the prover reaches a table's data only through {@link ProofSession} and {@link TableCommitment}.
 *
 * <p>It describes its tables' buffers as held in a resource of its own ({@link BackendMemory.Resource}, per table
 * and phase what the CPU backend would hold of them in RAM), and for the host only the global steps' buffers the
 * prover allocates itself ({@link TableBuffers#globalStepsOnly}: the phase trees, the lifted sum, FRI). The proving
 * key's preprocessed commitments are read in place: they are public and computed once per key.
 */
final class IsolatedBackend implements ProverBackend, AutoCloseable {
    static final String DEVICE_THREAD = "isolated-device";

    private final RamAllocator deviceMemory = new RamAllocator();
    private final WorkerPool devicePool = WorkerPool.ofThreads(1);
    private final ExecutorService device = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, DEVICE_THREAD);
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong downloadedBytes = new AtomicLong();
    private final Set<String> callingThreads = ConcurrentHashMap.newKeySet();
    private final AtomicLong sessionsOpen = new AtomicLong();

    /** {@return the device's own allocator: every table's copy, LDE and tree comes from it} */
    RamAllocator deviceMemory() {
        return deviceMemory;
    }

    /** {@return bytes the handles copied out to the prover (roots, digests, openings, frames' limbs, the lifted sum)} */
    long downloadedBytes() {
        return downloadedBytes.get();
    }

    /** {@return sessions opened and not yet closed} */
    long sessionsOpen() {
        return sessionsOpen.get();
    }

    /** {@return the threads the device's work ran on (its own, whichever thread the prover called from)} */
    Set<String> deviceThreads() {
        return Set.copyOf(callingThreads);
    }

    @Override
    public BackendMemory describe(List<TableDimensions> tables, ProofOptions options, int workerParallelism) {
        BackendMemory cpu = ProverBackend.cpu().describe(tables, options, 1);
        long[][] perPass = new long[tables.size()][ProofPhase.values().length];
        for (int i = 0; i < tables.size(); i++) {
            TableMemory memory = TableMemory.of(cpu.host().get(i));
            for (ProofPhase pass : ProofPhase.values()) {
                // what the table holds on the device through the phase: what it keeps from before, and what it makes
                // there
                perPass[i][pass.ordinal()] = memory.heldInto(pass, (table, role) -> false, false)
                        + memory.usage(pass, (table, role) -> false).ram();
            }
        }
        return new BackendMemory(
                cpu.host().stream().map(TableBuffers::globalStepsOnly).toList(),
                List.of(new BackendMemory.Resource("isolated device memory", Long.MAX_VALUE, perPass)));
    }

    @Override
    public ProofSession open(ProofContext context) {
        List<TableTrace> uploaded = new ArrayList<>(context.traces().size());
        ProofSession inner;
        try {
            for (TableTrace t : context.traces()) {
                uploaded.add(new TableTrace(t.name(), t.air(), upload(t.main()), t.publicInputs()));
            }
            ProverSettings deviceSettings = ProverSettings.defaults()
                    .withPool(devicePool)
                    .withExecutor(SequentialExecutor.INSTANCE)
                    .withStorage((table, role) -> deviceMemory)
                    .withDebugChecks(context.settings().debugChecks());
            BackendMemory described =
                    ProverBackend.cpu().describe(dimensions(uploaded), context.options(), devicePool.parallelism());
            ProofContext onDevice = new ProofContext(
                    uploaded,
                    context.preprocessed(),
                    described,
                    context.domain(),
                    context.options(),
                    context.hasher(),
                    deviceSettings,
                    context.randomness());
            inner = run(() -> ProverBackend.cpu().open(onDevice));
        } catch (RuntimeException | Error e) {
            uploaded.forEach(t -> t.main().close());
            throw e;
        }
        sessionsOpen.incrementAndGet();
        return new Session(inner, uploaded);
    }

    private static List<TableDimensions> dimensions(List<TableTrace> traces) {
        return traces.stream().map(TableDimensions::of).toList();
    }

    private Matrix upload(Matrix host) {
        Matrix copy = Matrix.allocate(deviceMemory, "device/" + host.label(), host.rows(), host.columns());
        long[] column = new long[host.rows()];
        for (int c = 0; c < host.columns(); c++) {
            host.readColumn(c, 0, column, 0, column.length);
            copy.writeColumn(c, 0, column, 0, column.length);
        }
        return copy;
    }

    /** Runs {@code work} on the device thread and waits for it; its exception is rethrown as it was thrown. */
    private <T> T run(Callable<T> work) {
        Future<T> f = device.submit(() -> {
            callingThreads.add(Thread.currentThread().getName());
            return work.call();
        });
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the device", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        device.shutdownNow();
        devicePool.close();
    }

    private final class Session implements ProofSession {
        private final ProofSession inner;
        private final List<TableTrace> uploaded;

        Session(ProofSession inner, List<TableTrace> uploaded) {
            this.inner = inner;
            this.uploaded = uploaded;
        }

        private List<TableCommitment> handles(List<TableCommitment> onDevice) {
            List<TableCommitment> out = new ArrayList<>(onDevice.size());
            for (TableCommitment c : onDevice) {
                out.add(c == null ? null : new Handle(c));
            }
            return out;
        }

        @Override
        public List<TableCommitment> commitMain() {
            return handles(run(inner::commitMain));
        }

        @Override
        public AuxRound commitAux(Ext3[] lookupChallenges) {
            AuxRound round = run(() -> inner.commitAux(lookupChallenges.clone()));
            return new AuxRound(handles(round.commitments()), round.busSums());
        }

        @Override
        public List<TableCommitment> commitComposition(Ext3 alpha) {
            return handles(run(() -> inner.commitComposition(alpha)));
        }

        @Override
        public List<OodFrame> openOod(Ext3 z) {
            return run(() -> inner.openOod(z));
        }

        @Override
        public Matrix liftedDeepPolynomial(List<OodFrame> frames, Ext3 gamma, Ext3 mu, Ext3 z) {
            return run(() -> {
                try (Matrix onDevice = inner.liftedDeepPolynomial(frames, gamma, mu, z)) {
                    Matrix host = Matrix.allocate(
                            RamAllocator.shared(), "lifted-deep (downloaded)", onDevice.rows(), onDevice.columns());
                    long[] column = new long[onDevice.rows()];
                    for (int c = 0; c < onDevice.columns(); c++) {
                        onDevice.readColumn(c, 0, column, 0, column.length);
                        host.writeColumn(c, 0, column, 0, column.length);
                    }
                    downloadedBytes.addAndGet(host.bytes());
                    return host;
                }
            });
        }

        @Override
        public FriKernels globalKernels() {
            return HostKernels.cpu();
        }

        @Override
        public long grind(Transcript transcript, int bits) {
            return transcript.grind(bits, devicePool);
        }

        @Override
        public void close() {
            try {
                run(() -> {
                    inner.close();
                    return null;
                });
            } finally {
                uploaded.forEach(t -> t.main().close());
                sessionsOpen.decrementAndGet();
            }
        }
    }

    /** A commitment on the device: every answer computed there and copied out. */
    private final class Handle implements TableCommitment {
        private final TableCommitment onDevice;

        Handle(TableCommitment onDevice) {
            this.onDevice = onDevice;
        }

        @Override
        public byte[] root() {
            byte[] root = run(() -> onDevice.root().clone());
            downloadedBytes.addAndGet(root.length);
            return root;
        }

        @Override
        public int leaves() {
            return run(onDevice::leaves);
        }

        @Override
        public void leafHashes(int from, int to, byte[] out, int offset) {
            byte[] copied = run(() -> {
                byte[] b = new byte[(to - from) * 32];
                onDevice.leafHashes(from, to, b, 0);
                return b;
            });
            System.arraycopy(copied, 0, out, offset, copied.length);
            downloadedBytes.addAndGet(copied.length);
        }

        @Override
        public long[][] leafElements(int[] leaves) {
            long[][] values = run(() -> onDevice.leafElements(leaves.clone()));
            for (long[] v : values) {
                downloadedBytes.addAndGet(8L * v.length);
            }
            return values;
        }

        @Override
        public byte[][] openBatch(int[] leaves) {
            byte[][] siblings = run(() -> onDevice.openBatch(leaves.clone()));
            downloadedBytes.addAndGet(32L * siblings.length);
            return siblings;
        }
    }
}
