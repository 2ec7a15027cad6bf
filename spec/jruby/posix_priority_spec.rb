# frozen_string_literal: true

require_relative "bridge_helper"

# ThreadNice's system call as the jruby package makes it: setpriority(2) on one thread id,
# through JRuby's POSIX layer; 0 on success, the errno otherwise.
RSpec.describe "PosixPriority" do
  let(:priority) { Java::OrgNettyrackJruby::PosixPriority.new(JRuby.runtime) }

  def nice_of_this_thread
    stat = File.read("/proc/thread-self/stat")
    Integer(stat[(stat.rindex(")") + 2)..].split[16])
  end

  it "sets the nice value of the thread with that id, and of no other" do
    skip "Linux only" unless File.exist?("/proc/thread-self")
    before = nice_of_this_thread
    inside = Thread.new do
      tid = Integer(File.basename(File.readlink("/proc/thread-self")))
      [priority.setpriority(tid, 7), nice_of_this_thread]
    end.value
    expect(inside).to eq([0, [7, before].max])
    expect(nice_of_this_thread).to eq(before)
  end

  it "answers the errno when the call fails" do
    expect(priority.setpriority(0x7fff_fff0, 7)).to eq(Errno::ESRCH::Errno) # no such thread
  end
end
