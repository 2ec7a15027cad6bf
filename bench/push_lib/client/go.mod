module nettyrack/bench/pushclient

go 1.26.0

require github.com/gorilla/websocket v1.5.3

require (
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0 // indirect
)
