# frozen_string_literal: true

require "nettyrack/stop_signal"

RSpec.describe Nettyrack::StopSignal do
  it "hands a request to the waiting thread" do
    stop = described_class.new
    waiter = Thread.new { stop.wait }
    stop.request("shutdown")
    expect(Deadline.value(waiter, 5)).to eq("shutdown")
  end

  it "relays a StopRequests' request (the control endpoint's), and ends the relay on restore" do
    stop = described_class.new
    requests = Java::OrgNettyrackCoreOps::StopRequests.new
    stop.relay(requests)
    requests.request("control /stop")
    expect(Deadline.value(Thread.new { stop.wait }, 5)).to eq("control /stop")
    quiet = described_class.new.relay(Java::OrgNettyrackCoreOps::StopRequests.new)
    restoring = Thread.new do
      quiet.restore
      :restored
    end
    expect(Deadline.value(restoring, 5)).to eq(:restored), "the idle relay thread ended"
    stop.restore
  end

  it "hands a trapped signal over by name, then restores the handler it replaced" do
    previous = Signal.trap("HUP") { :previous }
    stop = described_class.new.trap("HUP")
    Process.kill("HUP", Process.pid)
    expect(Deadline.value(Thread.new { stop.wait }, 5)).to eq("SIGHUP")
    stop.restore
    expect(Signal.trap("HUP", "DEFAULT").call).to eq(:previous)
  ensure
    Signal.trap("HUP", previous || "DEFAULT")
  end
end
