package io.jstark.prover;

import java.util.List;

/**
 * What a backend holds of each table of a proof ({@link ProverBackend#describe}).
 *
 * @param host per table, the buffers the backend allocates in this JVM (off-heap matrices and trees the
 *     storage policy places in RAM or spills, and heap scratch), with their lifetimes over the passes: the
 *     storage planner predicts the host's peak from them and the memory gate admits the tables by them. A
 *     backend that keeps a table's data elsewhere describes only what stays here.
 * @param elsewhere the resources of the backend's own (a device's memory, a remote machine's budget) and what
 *     each table holds in them per pass; empty for a backend that holds everything on this host
 */
public record BackendMemory(List<TableBuffers> host, List<Resource> elsewhere) {
    /**
     * Copies both lists.
     *
     * @param host per table, its host buffers
     * @param elsewhere the backend's own resources
     */
    public BackendMemory {
        host = List.copyOf(host);
        elsewhere = List.copyOf(elsewhere);
    }

    /**
     * {@return this description with no table's trace held on this host: a proof of tables the backend builds itself
     * ({@link TableOwningBackend})}
     */
    public BackendMemory withoutTraces() {
        return new BackendMemory(host.stream().map(TableBuffers::withoutTrace).toList(), elsewhere);
    }

    /**
     * A resource other than this host's memory, gated by the backend itself when it runs a pass.
     *
     * @param name what it is, as reports print it (e.g. "device 0 memory", "worker host:port")
     * @param capacityBytes what it can hold at once
     * @param bytesPerPass per table (outer index, the proof's order), the bytes it holds there during each
     *     {@link ProofPhase} (inner index: the pass's ordinal)
     */
    public record Resource(String name, long capacityBytes, long[][] bytesPerPass) {}
}
