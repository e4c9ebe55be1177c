package net.beaconcontroller.core;

import java.util.concurrent.CompletionStage;

/**
 * Takes part in bringing a switch up: after the handshake (features, description, SET_CONFIG, the flow deletion of
 * {@code controller.preExistingFlows=DELETE}) each initializer runs in order (published as an OSGi service, ordered by
 * {@link BeaconListener#before()}/{@link BeaconListener#after()}, or added with
 * {@link IBeaconProvider#addOFInitializerListener}), and the switch becomes active once the stage returned by
 * the last one completes. Typical use: push flows and wait for {@link IOFSwitch#barrier()}.
 *
 * <p>{@link #initializeSwitch} runs on the switch's I/O thread and must not block. A stage that completes
 * exceptionally, or does not complete before {@code controller.echoTimeout}, disconnects the switch.
 */
public interface IOFInitializerListener {
    /** As {@link IOFMessageListener#getName()}: by default the class's simple name in lower case. */
    default String getName() {
        return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    CompletionStage<?> initializeSwitch(IOFSwitch sw);
}
