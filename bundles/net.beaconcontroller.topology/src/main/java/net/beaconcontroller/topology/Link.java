package net.beaconcontroller.topology;

/**
 * A link between two switches in one direction: frames sent out of {@code src} arrive at {@code dst}. A cable is two
 * links, one each way; a link seen in one direction only is unidirectional.
 */
public record Link(SwitchPort src, SwitchPort dst) {
    public Link {
        if (src.dpid() == dst.dpid() && src.port() == dst.port()) {
            throw new IllegalArgumentException("a link joins two different ports, not " + src + " to itself");
        }
    }

    public static Link of(long srcDpid, int srcPort, long dstDpid, int dstPort) {
        return new Link(new SwitchPort(srcDpid, srcPort), new SwitchPort(dstDpid, dstPort));
    }

    /** The same cable in the other direction. */
    public Link reverse() {
        return new Link(dst, src);
    }

    @Override
    public String toString() {
        return src + " -> " + dst;
    }
}
