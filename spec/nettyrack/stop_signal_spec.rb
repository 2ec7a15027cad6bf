# frozen_string_literal: true

require "nettyrack/stop_signal"

RSpec.describe Nettyrack::StopSignal do
  it "hands a request to the waiting thread" do
    stop = described_class.new
    waiter = Thread.new { stop.wait }
    stop.request("shutdown")
    expect(Deadline.value(waiter, 5)).to eq("shutdown")
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
