/** Proving across machines: gRPC workers that hold tables, and the backend that places a proof's tables on them. */
@SuppressWarnings("module")
module io.jstark.cluster {
    requires transitive io.jstark;
    requires io.jstark.examples;
    requires io.jstark.crypto;
    requires io.jstark.instrument;
    requires io.grpc;
    requires io.grpc.stub;
    requires io.grpc.protobuf;
    requires io.grpc.netty.shaded;
    requires io.grpc.services;
    requires com.google.protobuf;
    requires com.google.common;
    requires static java.annotation;

    exports io.jstark.cluster;

    // the table sources of the user's own tables, on the worker's class path or module path
    uses io.jstark.cluster.TableSource;
    // protobuf reads the generated messages reflectively
    opens io.jstark.cluster.wire to
            com.google.protobuf;
}
