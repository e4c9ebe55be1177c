package net.beaconcontroller.hub.internal;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;

/** Sends every packet out of every other port: the smallest useful Beacon application. */
@Component(configurationPid = "hub", configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = Hub.Config.class)
@BeaconListener(types = OFType.PACKET_IN)
public final class Hub implements IOFMessageListener {
    @ObjectClassDefinition(name = "Hub")
    public @interface Config {
        @AttributeDefinition(description = "FLOOD: every port but the ingress one and those with"
                + " flooding off; ALL: every port but the ingress one.")
        Output output() default Output.FLOOD;

        enum Output { FLOOD, ALL }
    }

    private final List<OFAction> actions;

    @Activate
    public Hub(Config config) {
        actions = List.of(new OFActionOutput(config.output() == Config.Output.ALL ? OFPort.ALL : OFPort.FLOOD, 0));
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        sw.write(OFPacketOut.of((OFPacketIn) msg, actions));
        return Command.CONTINUE;
    }
}
