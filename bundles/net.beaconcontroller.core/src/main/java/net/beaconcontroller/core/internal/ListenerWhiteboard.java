package net.beaconcontroller.core.internal;

import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitchListener;

/**
 * Hands the controller the listeners applications publish as services, and takes them away when they go. A
 * component of its own rather than references of the controller: an application's listener usually needs
 * {@link net.beaconcontroller.core.IBeaconProvider} to be created, which it could not get while the controller was
 * still activating and asking for that very listener.
 */
@Component(service = {}, immediate = true)
public final class ListenerWhiteboard {
    private final Controller controller;

    @Activate
    public ListenerWhiteboard(@Reference Controller controller) {
        this.controller = controller;
    }

    @Reference(service = IOFMessageListener.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeMessageListener")
    void addMessageListener(IOFMessageListener listener, Map<String, Object> properties) {
        controller.addMessageListenerService(listener, properties);
    }

    void removeMessageListener(IOFMessageListener listener) {
        controller.removeMessageListenerService(listener);
    }

    @Reference(service = IOFSwitchListener.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeSwitchListener")
    void addSwitchListener(IOFSwitchListener listener, Map<String, Object> properties) {
        controller.addSwitchListenerService(listener, properties);
    }

    void removeSwitchListener(IOFSwitchListener listener) {
        controller.removeOFSwitchListener(listener);
    }

    @Reference(service = IOFInitializerListener.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeInitializer")
    void addInitializer(IOFInitializerListener listener, Map<String, Object> properties) {
        controller.addInitializerService(listener, properties);
    }

    void removeInitializer(IOFInitializerListener listener) {
        controller.removeOFInitializerListener(listener);
    }

    @Reference(service = IFlowReconciler.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeFlowReconciler")
    void addFlowReconciler(IFlowReconciler reconciler) {
        controller.addFlowReconciler(reconciler);
    }

    void removeFlowReconciler(IFlowReconciler reconciler) {
        controller.removeFlowReconciler(reconciler);
    }
}
