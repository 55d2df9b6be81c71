package io.jstark.cluster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Records every call a backend makes to its workers: its method, its phase, and the bytes of each message it carried. */
final class CallRecorder implements ClientInterceptor {
    /** One call: the bytes of every message sent and received, added up as they pass. */
    record Call(String method, String phase, AtomicLong sent, AtomicLong received) {}

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    List<Call> calls() {
        return List.copyOf(calls);
    }

    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
        Call call = new Call(
                method.getBareMethodName(), options.getOption(Traffic.PHASE), new AtomicLong(), new AtomicLong());
        calls.add(call);
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void start(Listener<A> listener, Metadata headers) {
                super.start(
                        new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                            @Override
                            public void onMessage(A message) {
                                call.received()
                                        .addAndGet(((com.google.protobuf.MessageLite) message).getSerializedSize());
                                super.onMessage(message);
                            }
                        },
                        headers);
            }

            @Override
            public void sendMessage(Q message) {
                call.sent().addAndGet(((com.google.protobuf.MessageLite) message).getSerializedSize());
                super.sendMessage(message);
            }
        };
    }
}
