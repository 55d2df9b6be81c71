package io.jstark.instrument;

/** The phase sequence handed out when nothing records: every method does nothing. */
final class NoopPhases implements Phases {
    static final NoopPhases INSTANCE = new NoopPhases();

    private NoopPhases() {}

    @Override
    public void next(String label) {}

    @Override
    public void next(String label, Object... keyValues) {}

    @Override
    public Phases nextSplit(String label, Object... keyValues) {
        return this;
    }

    @Override
    public void close() {}
}
