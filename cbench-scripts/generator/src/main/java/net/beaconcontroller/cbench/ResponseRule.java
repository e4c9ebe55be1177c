package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.OpenFlow10.ETH_TYPE_LLDP;
import static net.beaconcontroller.cbench.OpenFlow10.ETH_TYPE_VLAN;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD_ADD;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD_COMMAND_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.FLOW_MOD_MODIFY_STRICT;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_OUT;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_OUT_ACTIONS_LEN_OFFSET;
import static net.beaconcontroller.cbench.OpenFlow10.PACKET_OUT_ACTIONS_OFFSET;

import java.nio.ByteBuffer;

/**
 * cbench's rule for what counts as an answer to a PACKET_IN: every FLOW_MOD whose command is ADD or MODIFY_STRICT,
 * and every PACKET_OUT whose frame is not LLDP (controllers send LLDP for topology discovery, not as answers).
 *
 * <p>One deliberate difference: cbench's VLAN check skips the wrong number of bytes; here an 802.1Q-tagged LLDP
 * frame is recognised as LLDP too.
 */
public final class ResponseRule {
    private static final int ETH_TYPE_OFFSET = 12;

    private ResponseRule() {
    }

    /**
     * Whether the complete message at {@code offset} (of {@code length} bytes, as its header says) counts as a
     * response. Reads only inside {@code [offset, offset + length)}; a message too short for the field it needs does
     * not count.
     */
    public static boolean countsAsResponse(ByteBuffer buffer, int offset, int length) {
        int type = buffer.get(offset + 1);
        if (type == FLOW_MOD) {
            if (length < FLOW_MOD_COMMAND_OFFSET + 2) {
                return false;
            }
            int command = buffer.getShort(offset + FLOW_MOD_COMMAND_OFFSET) & 0xffff;
            return command == FLOW_MOD_ADD || command == FLOW_MOD_MODIFY_STRICT;
        }
        if (type == PACKET_OUT) {
            return length >= PACKET_OUT_ACTIONS_OFFSET && !carriesLldp(buffer, offset, length);
        }
        return false;
    }

    private static boolean carriesLldp(ByteBuffer buffer, int offset, int length) {
        int end = offset + length;
        int frame = offset + PACKET_OUT_ACTIONS_OFFSET
                + (buffer.getShort(offset + PACKET_OUT_ACTIONS_LEN_OFFSET) & 0xffff);
        if (frame + ETH_TYPE_OFFSET + 2 > end) {
            return false; // buffered PACKET_OUT without a frame: an answer to our buffered PACKET_IN
        }
        int ethType = buffer.getShort(frame + ETH_TYPE_OFFSET) & 0xffff;
        if (ethType == ETH_TYPE_VLAN && frame + ETH_TYPE_OFFSET + 6 <= end) {
            ethType = buffer.getShort(frame + ETH_TYPE_OFFSET + 4) & 0xffff;
        }
        return ethType == ETH_TYPE_LLDP;
    }
}
