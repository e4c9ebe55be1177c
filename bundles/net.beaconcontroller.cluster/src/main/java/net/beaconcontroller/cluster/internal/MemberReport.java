package net.beaconcontroller.cluster.internal;

import java.util.List;

import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * What one member says of itself, written only by that member (entry {@code beacon.reports[member]}): the switches
 * connected to it, the role each switch last granted it, and its load. Mastership is re-derived from these after every
 * membership change, so a partition of the masters map lost with a member costs nothing that the next report does not
 * bring back. Encoded as bytes with a version so that members of two releases can tell each other's reports apart.
 *
 * @param member   the writer's member id
 * @param cpu      the writer's process CPU load, 0 to 1, negative when unknown
 * @param switches one entry per switch connected to the writer, by datapath id
 */
record MemberReport(String member, double cpu, List<SwitchReport> switches) {
    static final int VERSION = 1;

    /**
     * @param dpid the switch
     * @param role the role the switch last granted this member ({@code OTHER} before any grant)
     * @param rate PACKET_INs per second this member handled from it at the last sample
     */
    record SwitchReport(long dpid, NiciraRole role, long rate) { }

    MemberReport {
        switches = List.copyOf(switches);
    }

    /** The switch's entry in this report, or null when it is not connected to the writer. */
    SwitchReport find(long dpid) {
        for (var s : switches) {
            if (s.dpid() == dpid) {
                return s;
            }
        }
        return null;
    }

    /** The sum of the rates of the switches the writer masters. */
    long masteredRate() {
        return switches.stream().filter(s -> s.role() == NiciraRole.MASTER).mapToLong(SwitchReport::rate).sum();
    }

    byte[] encode() {
        return Codec.encode(VERSION, 32 + 17 * switches.size(), out -> {
            out.writeUTF(member);
            out.writeDouble(cpu);
            out.writeInt(switches.size());
            for (var s : switches) {
                out.writeLong(s.dpid());
                out.writeByte(tag(s.role()));
                out.writeLong(s.rate());
            }
        });
    }

    /** @throws IllegalArgumentException for bytes that are not a report of this version */
    static MemberReport decode(byte[] bytes) {
        return Codec.decode(bytes, "member report", VERSION, in -> {
            var member = in.readUTF();
            double cpu = in.readDouble();
            int n = in.readInt();
            if (n < 0 || n > bytes.length / 17) {
                throw new IllegalArgumentException("member report with " + n + " switches in " + bytes.length
                        + " bytes");
            }
            var switches = new SwitchReport[n];
            for (int i = 0; i < n; i++) {
                switches[i] = new SwitchReport(in.readLong(), role(in.readUnsignedByte()), in.readLong());
            }
            return new MemberReport(member, cpu, List.of(switches));
        });
    }

    /** Stable tags on the wire, whatever the order of the enum's constants. */
    private static int tag(NiciraRole role) {
        return switch (role) {
            case OTHER -> 0;
            case MASTER -> 1;
            case SLAVE -> 2;
        };
    }

    private static NiciraRole role(int tag) {
        return switch (tag) {
            case 0 -> NiciraRole.OTHER;
            case 1 -> NiciraRole.MASTER;
            case 2 -> NiciraRole.SLAVE;
            default -> throw new IllegalArgumentException("member report with role tag " + tag);
        };
    }
}
