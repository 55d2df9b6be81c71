package io.jstark.crypto.hash;

/** Name, id and the per-thread digester that every {@link Hasher} here shares. */
abstract class AbstractHasher implements Hasher {
    private final String name;
    private final byte id;
    private final String implementation;
    private final ThreadLocal<Digester> perThread = ThreadLocal.withInitial(this::newDigester);

    AbstractHasher(String name, byte id, String implementation) {
        this.name = name;
        this.id = id;
        this.implementation = implementation;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final byte id() {
        return id;
    }

    @Override
    public final String implementation() {
        return implementation;
    }

    @Override
    public final Digester threadDigester() {
        Digester digester = perThread.get();
        digester.reset();
        return digester;
    }

    @Override
    public final String toString() {
        return name;
    }
}
