package net.beaconcontroller.cluster.internal;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.instance.impl.Node;

/**
 * The one way into Hazelcast's internal API, which the Hazelcast bundle exports: its node, for what the public API
 * lacks (the connections to the other members, suspecting one at once, the partition table's state without a remote
 * call).
 */
final class Internals {
    private Internals() {
    }

    /** The member's node; {@code null} when {@code hz} is not a running member. */
    static Node node(HazelcastInstance hz) {
        if (hz instanceof HazelcastInstanceProxy proxy) {
            var impl = proxy.getOriginal();
            return impl == null ? null : impl.node;
        }
        return null;
    }
}
