package search

import (
	"strings"
	"sync"
)

// The general vocabulary: words people use for an API's actions and
// things across products. It was written (commit 6f994d8) from general
// knowledge of messaging, files, tasks, code hosting, payments, cloud,
// meetings, accounts, email and support products before any evaluation
// query or result was read: 152 groups and 162 phrases. It was then
// measured as a whole on eval/'s tune, dev and dev2 splits, probes and our
// catalog, and the 18 entries whose removal raised a figure and lowered
// none were dropped (eval/README.md, "General vocabulary", lists them).
// Entries were not picked one by one for what they gain: the 17 that
// gained most on tune and dev, alone, lost on the fresh dev2 split; the
// whole list won.
//
// It is text parsed on first search, not Go literals: a table of slices
// costs the core ~56 KB of data and init code, the text ~7 KB.

// generalGroupsText holds one group a line: single words used for the
// same action or thing across products, every one related to every other
// at generalWeight in rank.go. A group's first word names it.
const generalGroupsText = "" +
	// Actions.
	`create make generate provision establish build spawn
delete remove erase destroy discard trash wipe purge drop eliminate
cancel abort void revoke withdraw rescind terminate
update change modify edit alter adjust amend tweak revise set
rename retitle relabel
get fetch retrieve read show view display see inspect describe check
list enumerate browse all overview
search find query lookup filter locate seek
send deliver dispatch post transmit submit
notify alert remind ping nudge
restore recover undelete revert rollback reinstate untrash unarchive undo
copy duplicate clone fork replicate mirror
move transfer relocate migrate reassign
share grant publish expose
assign allocate delegate assignee
invite onboard enroll invitation
archive shelve hide stash
enable activate unpause resume unblock reactivate
disable deactivate suspend pause block mute
stop halt shutdown kill end poweroff
restart reboot reset reload powercycle
upload import ingest
download export save
approve accept confirm authorize allow
reject decline deny refuse dismiss
reopen unresolve uncomplete
schedule book reserve arrange plan
subscribe follow watch optin
unsubscribe unfollow unwatch optout
refund reimburse reimbursement reverse reversal repay
lock freeze protect restrict
unlock unfreeze unprotect unrestrict
merge combine consolidate join
sort order rank reorder
count total tally number
comment reply respond remark annotate feedback
react reaction emoji like upvote
favorite favourite star bookmark pin
tag label categorize category
connect link integrate associate bind attach
disconnect unlink detach dissociate unbind
resize scale grow shrink expand upgrade downgrade
deploy release ship rollout publish
login signin authenticate logon
logout signout logoff
register signup enroll join
verify validate confirm check
convert transform translate
forward redirect reroute
ban block kick blacklist blocklist
mark flag set
transfer handover reassign
test ping try preview
` +
	// Things: compute and cloud.
	`server instance machine vm droplet host node box linode
region location zone datacenter area
disk volume drive storage
backup snapshot
image picture photo screenshot
database db
bucket container space
firewall rule acl
loadbalancer balancer lb
certificate cert ssl tls
domain hostname dns zone
ip ipv4 ipv6 address
cluster kubernetes
function lambda serverless
app application service
size capacity flavor type
memory ram
cpu processor vcpu core
key token credential secret
password passcode passphrase pin
log history activity audit event
metric stat statistics analytics insight report usage
status state health
limit quota ratelimit allowance cap
setting preference configuration config option
webhook hook callback endpoint
job run build pipeline workflow
variable env environment
alert notification alarm reminder
` +
	// Things: code hosting.
	`repository repo codebase
pull pr mr
commit revision changeset
branch ref
release version
gist snippet paste
collaborator contributor maintainer
` +
	// Things: people and accounts.
	`user account person people profile
member teammate colleague coworker staff employee worker
organization org company workspace tenant business
admin administrator owner moderator
permission access role privilege scope
avatar photo picture
phone mobile cell sms
customer client buyer shopper purchaser consumer
contact lead prospect
presence online away availability
leave absence vacation holiday pto
mfa 2fa otp totp
` +
	// Things: payments, billing and commerce.
	`invoice bill statement receipt
plan tier subscription package pricing
payment charge transaction
card source method
balance funds owe owed due outstanding
payout withdrawal disbursement cashout
coupon discount promo voucher promotion
order purchase checkout
product item sku goods merchandise listing
cart basket
shipment delivery fulfillment shipping parcel package
inventory stock
tax vat gst
revenue income earnings sales
dispute chargeback
credit topup
trial freemium
` +
	// Things: messaging, email and meetings.
	`message chat dm im text
email mail inbox
channel room conversation thread
meeting call conference webinar session
event appointment booking
calendar agenda schedule
attendee participant guest invitee
recording video transcript
campaign newsletter blast broadcast
audience segment list subscriber
recipient subscriber addressee
spam junk
` +
	// Things: files, tasks and support.
	`folder directory dir
file document doc attachment blob
trash bin recycle
link url permalink
task todo ticket issue card item
project board
milestone deadline due
sprint iteration cycle
note comment memo
agent operator rep assignee
article faq help guide doc
survey form questionnaire poll
rating review score satisfaction
timezone tz
`

// generalPhrasesText holds one phrase a line: what people say in several
// words, a colon, the API words it means. Like vocab.go's phrases, they are
// replaced by their meaning (after those), longer ones first.
const generalPhrasesText = "" +
	// Create, start and stop.
	`spun up: create
fire up: start
boot up: start
power on: start
turned on: enable
switch on: enable
kick off: start
shut down: shutdown
shut off: shutdown
turn off: disable
turned off: disable
switch off: disable
power cycle: reboot
start over: restart
tear down: delete
get rid of: delete
got rid of: delete
getting rid of: delete
throw away: delete
clean up: delete
wipe out: delete
take down: delete
put together: create
make a copy of: copy
make a copy: copy
back up: backup
scale up: resize
scale down: resize
size up: resize
go live: publish
roll out: deploy
push live: deploy
` +
	// Read and find.
	`look for: search
looking for: search
search for: search
find out: get
check on: status
what's going on with: status
how is: status
keep track of: track
pull up: get
what are my: list
` +
	// Change.
	`fill in: update
fill out: update
switch to: change
bump up: increase
move over: move
hand over: transfer
hand off: transfer
give ownership: transfer
mark as done: complete
mark as complete: complete
mark as finished: complete
check off: complete
tick off: complete
mark as read: read
mark as spam: spam
put back: restore
bring back: restore
get back: restore
roll back: rollback
undo: revert
` +
	// Accounts and access.
	`sign up: register
signed up: register
sign in: login
signed in: authenticated
log in: login
log on: login
sign out: logout
signed out: logout
logged out: logout
two factor: 2fa
two-factor: 2fa
give access: grant permission
grant access: grant permission
take away access: revoke permission
remove access: revoke permission
who can see: permission
kick out: remove
let in: invite
bring on: invite
about me: profile
my profile: profile
profile picture: avatar
profile photo: avatar
phone number: phone
api key: token
access token: token
team member: member
team mate: member
co worker: member
last seen: presence
time off: leave
day off: leave
days off: leave
time zone: timezone
` +
	// Money.
	`give back: refund
pay back: refund
charge back: chargeback
how much do i owe: balance
what do i owe: balance
how much i owe: balance
amount due: balance
how much money: balance
how much: amount
cash out: payout
withdraw money: payout
top up: credit
add funds: credit
credit card: card
debit card: card
promo code: coupon
discount code: coupon
gift card: giftcard
free trial: trial
sales tax: tax
shopping cart: cart
check out: checkout
in stock: inventory
out of stock: inventory
stock level: inventory
line item: item
price list: price
bank account: bank
money in: balance
get paid: payout
` +
	// Messages, meetings and support.
	`direct message: dm
private message: dm
group chat: conversation
send out: send
reach out to: message
get in touch with: contact
write back: reply
answer to: reply
video call: meeting
conference call: meeting
set a reminder: reminder
remind me: reminder
follow up: reminder
mailing list: audience
contact list: audience
help desk: ticket
support request: ticket
to do: todo
to-do: todo
due date: due
merge request: pull request
ip address: ip
rate limit: ratelimit
requests left: ratelimit
recycle bin: trash
deleted items: trash
`

// generalVocab is the general vocabulary ready for queries.
type generalVocab struct {
	synonyms map[string][]string // stem -> stems of its general synonyms
	phrases  []phraseMeaning
}

// general is built on first search, so that registering tools and runs
// that never search pay nothing for it. (sync.Once, not sync.OnceValue: a
// generic instance of its own would cost the core ~3 KB.)
var general = func() generalVocab {
	generalOnce.Do(func() {
		generalBuilt = buildGeneral(generalGroups(generalGroupsText), generalPhrases(generalPhrasesText))
	})
	return generalBuilt
}

var (
	generalOnce  sync.Once
	generalBuilt generalVocab
)

// generalGroups reads the groups' lines: the words of each.
func generalGroups(text string) [][]string {
	var groups [][]string
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			groups = append(groups, f)
		}
	}
	return groups
}

// generalPhrases reads the phrases' lines, "phrase: meaning".
func generalPhrases(text string) []phraseMeaning {
	var ps []phraseMeaning
	for _, line := range strings.Split(text, "\n") {
		if phrase, means, ok := strings.Cut(line, ":"); ok {
			ps = append(ps, phraseMeaning{strings.TrimSpace(phrase), strings.TrimSpace(means)})
		}
	}
	return ps
}

func buildGeneral(groups [][]string, ps []phraseMeaning) generalVocab {
	v := generalVocab{synonyms: buildSynonyms(groups)}
	// Longer phrases first, so that a shorter one inside does not break
	// them ("how much do i owe" before "how much"); in the table's order
	// among phrases of as many words.
	most := 0
	for _, ph := range ps {
		most = max(most, strings.Count(ph.phrase, " ")+1)
	}
	for n := most; n > 0; n-- {
		for _, ph := range ps {
			if strings.Count(ph.phrase, " ")+1 == n {
				v.phrases = append(v.phrases, ph)
			}
		}
	}
	return v
}

// The second block of the general vocabulary, written (helper words2) like
// the first: from general knowledge of how people ask for things in
// messaging, files, boards, code hosting, issue tracking, payments and
// point of sale, cloud and DNS, meetings, accounts and billing, email
// marketing, telephony, support, analytics and HR products, before any
// evaluation query or result was read. Same formats as the first block.
//
// Search does not read it: wired in like the first block (the two texts
// joined, same weight and cover), it raised the tuned splits by 3 recall@5
// hits of 302 and lost 3 recall@1 hits of 120 and one empty probe on the
// fresh dev2 split, so it failed validation. The 9 entries whose removal
// raised a tuned figure (leave-one-out) are already out: the groups
// add/create/new, team/group/squad/department and price/cost/fee/rate/
// amount; the phrases "turn on", "who has access", "shipping address",
// "clock in", "out of office" and "call in". Re-judged on dev2 + dev3
// (277 queries) it still lowered validation, 115 / 160 -> 111 / 159 hits
// (eval/README.md, "second block re-judged"). Its names are distinct from
// the first block's, so the two can be joined as they are.
const generalGroupsText2 = "" +
	// Actions.
	`start begin initiate commence launch
execute run invoke perform trigger
close resolve complete finish done conclude
retry rerun redo resend requeue
sync synchronize refresh reconcile
renew extend prolong renewal
rotate regenerate reissue renew
increase raise boost bump increment
decrease lower reduce decrement
replace swap substitute
clear empty flush
hide conceal mask redact
reveal unhide unmask
unpin unstar unfavorite unbookmark
unassign deassign
mention notify
announce announcement broadcast
estimate quote calculate compute
pay settle remit payment
charge debit capture bill
buy purchase acquire
fulfill fulfillment ship
return exchange rma
track trace monitor
monitor observe uptime
acknowledge ack
escalate elevate
snooze defer postpone delay
reschedule postpone rebook
attend participate join
exit quit leave
dial call ring phone
record capture
transcribe transcription caption subtitle
mute silence
compress zip gzip
extract unzip decompress
encrypt encode
decrypt decode
sign signature esign
install setup
uninstall remove
configure setup customize
promote elevate
demote downgrade
batch bulk mass
whitelist allowlist safelist
report flag abuse complain
moderate review
split divide
expire expiry expiration ttl
ping heartbeat healthcheck
hire recruit onboard
vote upvote poll
` +
	// Things: work, boards and issues.
	`priority urgency severity importance
template preset blueprint boilerplate
automation workflow rule recipe
column lane stage swimlane list
checklist subtask step
subtask child
epic initiative
bug defect issue error
error failure exception fault crash
incident outage downtime
worklog timesheet timelog timeentry
estimation estimate points
component module part
field attribute property metadata
dashboard overview summary
chart graph plot visualization
wiki knowledgebase kb docs
page webpage site website
post article entry blog
media asset file
backlog queue
draft unpublished
plugin extension addon integration app powerup
bot assistant
version revision
` +
	// Things: commerce and money.
	`fee commission surcharge
expense cost spend spending expenditure
currency money
payee beneficiary recipient
merchant seller vendor
store shop storefront outlet location
terminal pos reader register device
device hardware gadget
loyalty reward points
gift giftcard voucher
catalog menu
variant variation option modifier
reservation booking appointment
tip gratuity
wallet balance
` +
	// Things: people, places and HR.
	`location place venue site address
country nation
language locale lang
manager supervisor boss lead
candidate applicant
opening vacancy position requisition
shift roster rota
timecard clockin punch
payroll salary wage compensation pay
benefit perk
host organizer presenter panelist speaker
registrant registration attendee
sharer collaborator collaboration
` +
	// Things: telephony, messaging and support.
	`sms text textmessage mms
number phonenumber line extension
voicemail message
macro canned template
queue waitlist
sla policy
satisfaction csat nps
bounce undeliverable
journey automation sequence drip
design template layout theme
entry record row
` +
	// Things: cloud and networking.
	`network vpc subnet vlan
floatingip reservedip elasticip staticip
rdns ptr
nameserver ns
distribution distro os image
traffic bandwidth transfer
uptime availability
container docker
cron recurring periodic scheduled
`

const generalPhrasesText2 = "" +
	// Actions.
	`spin down: shutdown
log off: logout
sign on: login
opt in: subscribe
opt out: unsubscribe
sign off: approve
signed off: approve
wrap up: complete
close out: close
finish up: complete
put on hold: pause
on hold: paused
list out: list
sent out: send
sending out: send
turn into: convert
change into: convert
hook up: connect
plug in: connect
make public: publish
move to: move
drag to: move
assign to: assign
in bulk: batch
all at once: batch
in one go: batch
many at once: batch
` +
	// Questions.
	`who owns: owner
how long: duration
how often: frequency
how many times: count
how many people: count
most recent: latest
who attended: participant
who joined: participant
who showed up: participant
is down: status
up and running: status
how much space: quota
space left: quota
storage space: storage
disk space: storage
used space: usage
free space: quota
calls left: ratelimit
requests remaining: ratelimit
how much does: price
cost of: price
` +
	// Accounts and access.
	`forgot password: password reset
forgot my password: password reset
locked out: unlock
two step: 2fa
one time code: otp
one-time password: otp
single sign on: sso
api token: token
personal access token: token
secret key: key
my details: profile
my info: profile
display name: name
user name: username
email address: email
billing address: address
billing history: invoice
past invoices: invoice
payment history: payment
` +
	// Money and commerce.
	`money owed: balance
paid out: payout
unit price: price
store credit: credit
loyalty points: loyalty
point of sale: pos
credit note: credit
` +
	// Work, code and HR.
	`bug report: bug
feature request: feature
code review: review
default branch: branch
main branch: branch
release notes: release
issue tracker: issue
story points: estimate
work log: worklog
time tracking: worklog
time spent: worklog
time sheet: timesheet
sub task: subtask
child issue: subtask
check list: checklist
kanban board: board
clock out: timecard
paid time off: leave
sick day: leave
new hire: employee
pay rate: wage
` +
	// Messaging, meetings, marketing and support.
	`text message: sms
phone call: call
voice call: call
voice mail: voicemail
hang up: end call
dial in: phone
meeting link: join url
join link: join url
mass email: campaign
email blast: campaign
bulk email: campaign
email list: audience
subscriber list: audience
signup form: form
landing page: page
open rate: report
click rate: report
unique visitors: visitor
help article: article
knowledge base: article
canned response: macro
saved reply: macro
support agent: agent
customer service: support
operating system: os
name server: nameserver
dns record: record
reverse dns: rdns
private network: network
shared link: share link
public link: share link
`
