package net.beaconcontroller.staticflowpusher;

import java.util.List;
import java.util.Objects;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActions;

/**
 * A flow an operator wants on a switch whatever the applications do: kept across restarts and written again
 * whenever its switch connects.
 *
 * @param name        unique among all static flows; adding a flow with a name in use replaces that flow; not starting
 *                    with {@code #}, which the file it is kept in reads as a comment
 * @param dpid        the switch
 * @param match       what packets it applies to
 * @param actions     what it does with them; empty drops them
 * @param priority    0..65535
 * @param cookie      the flow's cookie on the switch
 * @param idleTimeout seconds, 0..65535, 0 for none
 * @param hardTimeout seconds, 0..65535, 0 for none
 * @param active      whether it is on the switch; an inactive flow is only kept
 */
public record StaticFlow(String name, long dpid, OFMatch match, List<OFAction> actions, int priority, long cookie,
        int idleTimeout, int hardTimeout, boolean active) {
    public StaticFlow {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("a static flow's name is non-blank text without control characters");
        }
        if (name.startsWith("#")) {
            throw new IllegalArgumentException("a static flow's name must not start with '#' (" + name + ")");
        }
        Objects.requireNonNull(match, "match");
        actions = List.copyOf(actions);
        // Refused here, not when a switch connects: a FLOW_MOD that cannot be encoded would reach no switch.
        int length = OFFlowMod.MIN_LENGTH + OFActions.totalLength(actions);
        if (length > 0xffff) {
            throw new IllegalArgumentException("the flow's " + actions.size() + " actions make a FLOW_MOD of "
                    + length + " bytes, over OpenFlow 1.0's limit of 65535 bytes a message");
        }
        check(priority, "priority");
        check(idleTimeout, "idle timeout");
        check(hardTimeout, "hard timeout");
    }

    private static void check(int value, String what) {
        if (value < 0 || value > 0xffff) {
            throw new IllegalArgumentException(what + " must be 0..65535, not " + value);
        }
    }

    /** The FLOW_MOD that puts it on its switch. */
    public OFFlowMod add() {
        return OFFlowMod.builder().match(match).cookie(cookie).priority(priority).idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout).actions(actions).build();
    }

    /** The FLOW_MOD that takes exactly it off its switch. */
    public OFFlowMod delete() {
        return OFFlowMod.builder().command(OFFlowMod.Command.DELETE_STRICT).match(match).priority(priority)
                .outPort(OFPort.NONE).build();
    }
}
